// One program emulated on the system its format is for: ELF on the virtual Linux kernel, PE on the Windows
// API layer.
import { FormatError } from '../formats/errors.js';
import { identify } from '../formats/index.js';
import { EmulationRefused, type EmulationRun } from './events.js';
import { runLinuxElf, type LinuxRunOptions } from './linux/run-elf.js';
import { runWindowsPe } from './windows/run-pe.js';

/** Runs `bytes` with `options` (the sysroot is for Linux programs, input files go where the system has them). */
export function runProgram(bytes: Uint8Array, options: LinuxRunOptions): EmulationRun {
  const { format } = identify(bytes, bytes.length);
  try {
    if (format === 'elf') return runLinuxElf(bytes, options);
    if (format === 'pe') return runWindowsPe(bytes, options);
  } catch (err) {
    // Headers too damaged to load from: the analysis says so; nothing ran.
    if (err instanceof FormatError) throw new EmulationRefused(`cannot be loaded: ${err.message}`);
    throw err;
  }
  throw new EmulationRefused(`${format} programs are not emulated: only ELF (Linux) and PE (Windows) ones are`);
}
