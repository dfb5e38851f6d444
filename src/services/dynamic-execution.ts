// The dynamic-execution views of an analysis, from its emulated run's report (engine/emulate/report.ts): the
// process tree, DNS answers, registry operations by process, memory dumps (and each one's bytes), TTPs with
// the processes and functions that showed them, and the recorded events a page at a time.
import { readFile } from 'node:fs/promises';
import type { Static } from '@sinclair/typebox';
import type { BlobStore } from '../blobs/index.js';
import type {
  DynamicEvents,
  DynamicEventsQuery,
  DynamicExecutionStatusData,
  NetworkOverviewResponse,
  ProcessDumps,
  ProcessNode,
  ProcessRegistry,
  ProcessTree,
  Ttps,
} from '../contracts/index.js';
import type { DynamicReport, EmulationEvent, ProcessRecord } from '../engine/index.js';
import { errors } from '../shared/errors.js';
import type { Store } from '../store/index.js';
import { visibleAnalysis, type Caller } from './access.js';

/** The registry view's method for each registry event. */
const REGISTRY_METHODS: Partial<Record<EmulationEvent['kind'], string>> = {
  'registry-create': 'create',
  'registry-open': 'open',
  'registry-query': 'query',
  'registry-set': 'set',
  'registry-delete': 'delete',
};

type FunctionRef = { id: number; vaddr: number; name: string };

export class DynamicExecutionService {
  constructor(
    private readonly store: Store,
    private readonly blobs: BlobStore,
  ) {}

  async status(caller: Caller, id: number): Promise<Static<typeof DynamicExecutionStatusData>> {
    const run = await this.run(caller, id);
    if (run.report === null) return { status: run.status };
    return { status: run.status, stop: (JSON.parse(run.report) as DynamicReport).stop };
  }

  async processTree(caller: Caller, id: number): Promise<Static<typeof ProcessTree>> {
    const { processes } = await this.report(caller, id);
    const node = (p: ProcessRecord): ProcessNode => ({
      pid: p.pid,
      procname: p.path.split(/[\\/]/).pop() ?? p.path,
      executable_name: p.path,
      args: p.args,
      ts_from: p.from,
      ts_to: p.to,
      children: processes.filter((c) => c.parent === p.pid).map(node),
    });
    return { success: true, data: processes.filter((p) => p.parent === null).map(node) };
  }

  async networkOverview(caller: Caller, id: number): Promise<Static<typeof NetworkOverviewResponse>> {
    const { events } = await this.report(caller, id);
    const answers = new Map<string, Set<string>>();
    for (const e of events)
      if (e.kind === 'dns-query') {
        const host = String(e.detail.host);
        const set = answers.get(host) ?? new Set<string>();
        if (e.detail.answer !== undefined) set.add(String(e.detail.answer));
        answers.set(host, set);
      }
    // The fake network answers from a documentation range: no country or network to report for it.
    return {
      dns: [...answers].map(([host, a]) => ({
        host,
        type: 'A',
        answers: [...a].map((data) => ({ type: 'A', data })),
      })),
      metadata: [],
    };
  }

  /** Registry operations by process id, in run order: the key, and the value's name and data where there is one. */
  async processRegistry(caller: Caller, id: number): Promise<Static<typeof ProcessRegistry>> {
    const { events } = await this.report(caller, id);
    const data: Static<typeof ProcessRegistry>['data'] = {};
    for (const e of events) {
      const method = REGISTRY_METHODS[e.kind];
      if (!method) continue;
      const path = String(e.detail.path);
      // Value operations name HIVE\key\value; key operations the key alone.
      const valued =
        e.kind === 'registry-set' ||
        e.kind === 'registry-query' ||
        (e.kind === 'registry-delete' && e.api.includes('Value'));
      const cut = valued ? path.lastIndexOf('\\') : path.length;
      (data[String(e.pid)] ??= []).push({
        method,
        key: path.slice(0, cut),
        value_name: valued ? path.slice(cut + 1) : null,
        value: e.detail.value === undefined ? null : String(e.detail.value),
      });
    }
    return { success: true, data };
  }

  async processDumps(caller: Caller, id: number): Promise<Static<typeof ProcessDumps>> {
    const { dumps } = await this.report(caller, id);
    return {
      success: true,
      data: {
        count: dumps.length,
        dumps: dumps.map((d) => ({
          base_address: d.address,
          actual_filename: d.name,
          filename_friendly: `${d.why === 'dropped' ? 'dropped by' : d.why === 'injected' ? 'injected into' : 'unpacked in'} ${d.process} (pid ${d.pid})${d.path ? `: ${d.path}` : ''}`,
          extended_metadata: { sha256: d.sha256, type: d.type, size: d.size },
          pid: d.pid,
          reason: d.why,
        })),
      },
    };
  }

  /** The bytes of dump `name` (as kept: a dump over the run's bound is its start), from the blob store. */
  async processDump(caller: Caller, id: number, name: string): Promise<Buffer> {
    const { dumps } = await this.report(caller, id);
    const dump = dumps.find((d) => d.name === name);
    if (!dump)
      throw errors
        .resourceNotFound()
        .withDetail(
          `analysis ${id}'s run has no dump named ${name.slice(0, 200)}: the process-dumps view lists its dumps`,
        );
    return readFile(await this.blobs.localPath(dump.kept));
  }

  async ttps(caller: Caller, id: number): Promise<Static<typeof Ttps>> {
    const report = await this.report(caller, id);
    const { behaviours, events, processes } = report;
    const bySeq = new Map(events.map((e) => [e.seq, e]));
    const parentOf = new Map(processes.map((p) => [p.pid, p.parent ?? 0]));
    // Each behaviour leads to the functions whose calls showed it (once the static analysis has them).
    const functionOf = this.functionsOf(id, report);
    const ttps = await Promise.all(
      behaviours.map(async (b) => {
        const shown = b.events.map((seq) => bySeq.get(seq)).filter((e) => e !== undefined);
        const pids = [...new Set(shown.map((e) => e.pid))];
        const found = await Promise.all(shown.map(functionOf));
        const functions = [...new Map(found.filter((f) => f !== null).map((f) => [f.id, f])).values()];
        return {
          name: b.name,
          attack: b.attack,
          occurrences: pids.map((pid) => ({ pid, ppid: parentOf.get(pid) ?? 0 })),
          score: b.score,
          functions: functions.map((f) => ({ function_id: f.id, function_name: f.name, function_vaddr: f.vaddr })),
        };
      }),
    );
    return { success: true, data: { score: ttps.reduce((n, t) => n + t.score, 0), ttps } };
  }

  /**
   * The run's events in run order, filtered by process and kind, a page at a time; each with the function of
   * the analysis holding its call site, when the static analysis has one there.
   */
  async events(
    caller: Caller,
    id: number,
    query: Static<typeof DynamicEventsQuery>,
  ): Promise<Static<typeof DynamicEvents>> {
    const report = await this.report(caller, id);
    const { page = 1, page_size: size = 100 } = query;
    const ofProcess = report.events.filter((e) => query.pid === undefined || e.pid === query.pid);
    const kinds = new Map<string, number>();
    for (const e of ofProcess) kinds.set(e.kind, (kinds.get(e.kind) ?? 0) + 1);
    const matching = ofProcess.filter((e) => query.kind === undefined || e.kind === query.kind);
    const shown = matching.slice((page - 1) * size, page * size);
    const functionOf = this.functionsOf(id, report);
    const functions = await Promise.all(shown.map(functionOf));
    return {
      events: shown.map((e, i) => ({
        seq: e.seq,
        pid: e.pid,
        kind: e.kind,
        api: e.api,
        site: e.site,
        detail: e.detail,
        function_id: functions[i]?.id ?? null,
      })),
      total: matching.length,
      recorded: report.eventCount,
      kinds: [...kinds].map(([kind, count]) => ({ kind, count })),
    };
  }

  /**
   * The function of analysis `id` holding an event's call site (each site looked up once), or null. Only the
   * sample's own code is in its static analysis: not that of a process created from another executable (a
   * Windows child, a program it dropped and started) — a forked one runs the sample's until it execs.
   */
  private functionsOf(id: number, { events, base }: DynamicReport): (e: EmulationEvent) => Promise<FunctionRef | null> {
    const otherImages = new Set(
      events.filter((e) => e.kind === 'process-create' && e.detail.path !== undefined).map((e) => e.detail.pid),
    );
    const functionAt = new Map<number, Promise<FunctionRef | null>>();
    return (e) => {
      if (otherImages.has(e.pid)) return Promise.resolve(null);
      let f = functionAt.get(e.site);
      if (!f) functionAt.set(e.site, (f = this.store.functions.containing(id, e.site - base)));
      return f;
    };
  }

  private async run(caller: Caller, id: number) {
    await visibleAnalysis(this.store, caller, id);
    const run = await this.store.dynamicExecutions.get(id);
    if (!run) throw errors.dynamicExecutionNotRequested(id);
    return run;
  }

  private async report(caller: Caller, id: number): Promise<DynamicReport> {
    const run = await this.run(caller, id);
    if (run.status !== 'SUCCESS' || run.report === null)
      throw errors.dynamicExecutionNotReady(id, run.status, run.error);
    return JSON.parse(run.report) as DynamicReport;
  }
}
