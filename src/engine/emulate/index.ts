// Dynamic execution by emulation: Unicorn underneath (unicorn.ts), a virtual Linux kernel for ELF programs
// (linux/), Windows API handlers for PE programs (windows/), what a run did and why it stopped (events.ts),
// the behaviours it shows and the report the views read. May import the engine's formats.
export {
  DEFAULT_LIMITS,
  EmulationRefused,
  type EmulationRun,
  type EmulationEvent,
  type EventKind,
  type RunLimits,
  type RunStop,
  type StopReason,
} from './events.js';
export { behavioursOf, type Behaviour, type Technique } from './behaviours.js';
export { type Sysroot } from './linux/environment.js';
export {
  dumpContents,
  dynamicReport,
  type BehaviourRecord,
  type DumpRecord,
  type DynamicReport,
  type ProcessRecord,
} from './report.js';
export { runLinuxElf, type LinuxRunOptions } from './linux/run-elf.js';
export { runWindowsPe, type WindowsRunOptions } from './windows/run-pe.js';
export { runProgram } from './run.js';
export { windowsApiHandled } from './windows/apis/index.js';
export { emulatorAvailable, EmulatorUnavailable } from './unicorn.js';
