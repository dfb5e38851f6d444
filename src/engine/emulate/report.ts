// One emulated run as the dynamic-execution views read it, kept as a document with the analysis: the process
// tree (from the creations and execs the events record), the events themselves, the behaviours they show
// (events by their order in the run) and why the run stopped. Bounded: a chatty sample keeps its first
// events and the start of its output.
import { createHash } from 'node:crypto';
import { fileFromMappedImage } from '../formats/pe/mapped-image.js';
import { behavioursOf, type Technique } from './behaviours.js';
import { ROOT_PID, type EmulationEvent, type EmulationRun, type MemoryDump, type RunStop } from './events.js';

/** Events kept per run; the count of all is kept beside them. */
const MAX_EVENTS = 10_000;
/** Characters of standard output and error kept. */
const MAX_OUTPUT = 64 << 10;
/** Dumps kept per run, and their bytes in all (each dump's start when over). */
const MAX_DUMPS = 32;
const MAX_DUMP_BYTES = 32 << 20;

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

export interface DumpRecord {
  /** What the process-dumps view lists and the dump route is asked for. */
  name: string;
  pid: number;
  process: string;
  /** Where it was in the process (0 for a dropped file). */
  address: number;
  /** Where a dropped file was written. */
  path?: string;
  /** Code written into another process and started, unpacked and run, or an executable written to disk. */
  why: 'injected' | 'executed' | 'dropped';
  /** What the bytes are: PE, ELF, or code with no header (shellcode). */
  type: string;
  size: number;
  sha256: string;
  /** SHA-256 of the bytes kept (all of them, or their start when the run's dumps were over the bound). */
  kept: string;
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
  dumps: DumpRecord[];
}

/** The report of a run of the sample invoked as `argv`. */
export function dynamicReport(run: EmulationRun, argv: string[]): DynamicReport {
  const root: ProcessRecord = { pid: ROOT_PID, parent: null, path: argv[0] ?? '', args: argv, from: 0, to: 0 };
  const processes = new Map<number, ProcessRecord>([[ROOT_PID, root]]);
  for (const e of run.events) {
    const p = processes.get(e.pid);
    if (p) p.to = e.seq;
    if (e.kind === 'process-create' && typeof e.detail.pid === 'number') {
      // A child runs the image of the process that created it until it execs another.
      const from = processes.get(e.pid) ?? root;
      // A Windows child runs the image it was created with; a forked one its parent's, until it execs.
      const image = e.detail.path === undefined ? null : String(e.detail.path);
      processes.set(e.detail.pid, {
        pid: e.detail.pid,
        parent: e.pid,
        path: image ?? from.path,
        args:
          image === null
            ? from.args
            : String(e.detail.args ?? image)
                .split(' ')
                .filter(Boolean),
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
    dumps: dumpRecords(run, processes),
  };
}

/** What the bytes of a dump are, by their header. */
function kindOf(bytes: Uint8Array): string {
  if (bytes[0] === 0x4d && bytes[1] === 0x5a) return 'PE';
  if (bytes[0] === 0x7f && bytes[1] === 0x45 && bytes[2] === 0x4c && bytes[3] === 0x46) return 'ELF';
  return 'shellcode';
}

type DumpSource = MemoryDump | (Omit<MemoryDump, 'why'> & { why: 'dropped'; path: string });

/**
 * The run's memory dumps, then the executables it wrote to disk, each with the bytes kept of it (its start
 * once the run's dumps are over the bound).
 */
function dumpsOf(run: EmulationRun): { dump: DumpSource; kept: Uint8Array }[] {
  const written = new Map<string, number>();
  for (const e of run.events) if (e.kind === 'file-write') written.set(String(e.detail.path), e.pid);
  const dropped = [...written]
    .map(([path, pid]) => ({ path, pid, bytes: run.files.get(path) }))
    .filter((f) => f.bytes && kindOf(f.bytes) !== 'shellcode')
    .map((f) => ({ pid: f.pid, process: '', address: 0, path: f.path, why: 'dropped' as const, bytes: f.bytes! }));
  // A PE found in memory is as the loader (or an unpacker) mapped it: made to read as a file for its analysis.
  const unmapped = run.dumps.map((d) =>
    kindOf(d.bytes) === 'PE' ? { ...d, bytes: fileFromMappedImage(d.bytes) ?? d.bytes } : d,
  );
  let budget = MAX_DUMP_BYTES;
  return [...unmapped, ...dropped].slice(0, MAX_DUMPS).map((dump: DumpSource) => {
    const kept = dump.bytes.subarray(0, Math.max(0, budget));
    budget -= kept.length;
    return { dump, kept };
  });
}

/** The bytes kept of each of the report's dumps, in its order: what the dump route serves. */
export function dumpContents(run: EmulationRun): Uint8Array[] {
  return dumpsOf(run).map((d) => d.kept);
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** The report's record of each dump, under a name of its own. */
function dumpRecords(run: EmulationRun, processes: Map<number, ProcessRecord>): DumpRecord[] {
  return dumpsOf(run).map(({ dump: d, kept }) => {
    const place = 'path' in d ? (d.path.split(/[\\/]/).pop() ?? 'file') : `0x${d.address.toString(16)}`;
    return {
      name: `${d.pid}_${d.why}_${place}`,
      pid: d.pid,
      // A Linux process (and the writer of a dropped file) is named by what it runs, which the report knows.
      process: d.process || (processes.get(d.pid)?.path ?? ''),
      address: d.address,
      ...('path' in d ? { path: d.path } : {}),
      why: d.why,
      type: kindOf(d.bytes),
      size: d.bytes.length,
      sha256: sha256(d.bytes),
      kept: sha256(kept),
    };
  });
}
