// One emulated run as the dynamic-execution views read it, kept as a document with the analysis: the process
// tree (from the creations and execs the events record), the events themselves, the behaviours they show
// (events by their order in the run) and why the run stopped. Bounded: a chatty sample keeps its first
// events and the start of its output.
import { behavioursOf, type Technique } from './behaviours.js';
import type { EmulationEvent, RunStop } from './events.js';
import { ROOT_PID } from './linux/kernel.js';
import type { LinuxRun } from './linux/run-elf.js';

/** Events kept per run; the count of all is kept beside them. */
const MAX_EVENTS = 10_000;
/** Characters of standard output and error kept. */
const MAX_OUTPUT = 64 << 10;

export interface ProcessRecord {
  pid: number;
  /** The process that created it; null for the sample's own. */
  parent: number | null;
  /** What it runs: the sample's name, or the path it exec'd. */
  path: string;
  args: string[];
  /** Order in the run (event numbers) of its creation and of its last event. */
  from: number;
  to: number;
}

export interface BehaviourRecord {
  name: string;
  attack: Technique[];
  score: number;
  /** The `seq` of each event that shows it. */
  events: number[];
}

export interface DynamicReport {
  stop: RunStop;
  /** Where the executable was loaded: an event's site − base is its address in the static analysis. */
  base: number;
  processes: ProcessRecord[];
  events: EmulationEvent[];
  /** Events the run recorded, kept or not. */
  eventCount: number;
  behaviours: BehaviourRecord[];
  /** System and API calls made. */
  calls: number;
  output: string;
}

/** The report of a run of the sample invoked as `argv`. */
export function dynamicReport(run: LinuxRun, argv: string[]): DynamicReport {
  const root: ProcessRecord = { pid: ROOT_PID, parent: null, path: argv[0] ?? '', args: argv, from: 0, to: 0 };
  const processes = new Map<number, ProcessRecord>([[ROOT_PID, root]]);
  for (const e of run.events) {
    const p = processes.get(e.pid);
    if (p) p.to = e.seq;
    if (e.kind === 'process-create' && typeof e.detail.pid === 'number') {
      // A child runs the image of the process that created it until it execs another.
      const from = processes.get(e.pid) ?? root;
      processes.set(e.detail.pid, {
        pid: e.detail.pid,
        parent: e.pid,
        path: from.path,
        args: from.args,
        from: e.seq,
        to: e.seq,
      });
    }
    if (e.kind === 'process-exec' && p) {
      p.path = String(e.detail.path);
      p.args = String(e.detail.args ?? '')
        .split(' ')
        .filter(Boolean);
    }
  }
  return {
    stop: run.stop,
    base: run.base,
    processes: [...processes.values()],
    events: run.events.slice(0, MAX_EVENTS),
    eventCount: run.events.length,
    behaviours: behavioursOf(run.events).map((b) => ({ ...b, events: b.events.map((e) => e.seq) })),
    calls: run.calls,
    output: run.output.slice(0, MAX_OUTPUT),
  };
}
