// What each process of the run did, gathered from the views that name a process: the processes it created
// (the tree), its registry operations, the behaviours it showed and the memory dumped from it.
import { bytes } from '../../components/format';
import type { Dump, Process, Registry, Ttps } from './views';

export const ACTIVITY_KINDS = ['process', 'behaviour', 'registry', 'dump'] as const;
export type ActivityKind = (typeof ACTIVITY_KINDS)[number];

export const KIND_LABELS: Record<ActivityKind, string> = {
  process: 'Process',
  behaviour: 'Behaviour',
  registry: 'Registry',
  dump: 'Memory dump',
};

export interface Activity {
  kind: ActivityKind;
  what: string;
  detail: string;
}

export function flatten(processes: Process[]): Process[] {
  return processes.flatMap((p) => [p, ...flatten(p.children)]);
}

export function registryText(op: Registry[string][number]): string {
  const name = op.value_name === null ? op.key : `${op.key}\\${op.value_name}`;
  return op.value === null ? name : `${name} = ${op.value}`;
}

export function activityByPid(
  processes: Process[],
  ttps: Ttps,
  registry: Registry,
  dumps: Dump[],
): Map<number, Activity[]> {
  const byPid = new Map<number, Activity[]>();
  const add = (pid: number, a: Activity) => {
    const list = byPid.get(pid);
    if (list) list.push(a);
    else byPid.set(pid, [a]);
  };
  for (const p of flatten(processes))
    for (const c of p.children)
      add(p.pid, { kind: 'process', what: `creates ${c.procname} (pid ${c.pid})`, detail: c.args.join(' ') });
  for (const t of ttps.ttps)
    for (const o of t.occurrences)
      add(o.pid, { kind: 'behaviour', what: t.name, detail: t.attack.map((a) => `${a.id} ${a.name}`).join('; ') });
  for (const [pid, ops] of Object.entries(registry))
    for (const op of ops) add(Number(pid), { kind: 'registry', what: op.method, detail: registryText(op) });
  // `pid` is a Binlens extension of the reference's dump: a server without it cannot place the dump.
  for (const d of dumps)
    if (d.pid !== undefined)
      add(d.pid, {
        kind: 'dump',
        what: d.filename_friendly,
        detail: `${d.extended_metadata.type}, ${bytes(d.extended_metadata.size)}`,
      });
  return byPid;
}
