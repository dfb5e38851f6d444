// A binary's relatives: the binaries found inside it (dumps of its emulated run, executables of a firmware
// image) and the binary it was itself found in, and where the task that finds them stands.
import type { Static } from '@sinclair/typebox';
import type { BinariesRelatedStatusResponse, ChildBinariesResponse } from '../contracts/index.js';
import { errors } from '../shared/errors.js';
import type { FirmwareStatus, RelativeRow, Store } from '../store/index.js';
import { canView, type Caller } from './access.js';
import { canViewTask } from './firmware.js';

/** How far up a chain of parents visibility is looked for (firmware nests at most 10 deep). */
const MAX_ANCESTORS = 16;

const DYNAMIC_STATUS = { PENDING: 'PENDING', SUCCESS: 'COMPLETED', ERROR: 'ERROR' } as const;
const FIRMWARE_STATUS: Record<FirmwareStatus, string> = {
  PENDING: 'PENDING',
  RUNNING: 'PENDING',
  COMPLETED: 'COMPLETED',
  ERROR: 'ERROR',
};

export class RelatedBinariesService {
  constructor(private readonly store: Store) {}

  /**
   * Whether the caller may see the binary: through its analysis, or — for a binary found inside another —
   * as the one it was found for, or through the binary it was found in.
   */
  private async visible(caller: Caller, binaryId: number): Promise<boolean> {
    let id = binaryId;
    for (let depth = 0; depth <= MAX_ANCESTORS; depth++) {
      const a = await this.store.analyses.byBinaryId(id);
      if (a && canView(caller, a)) return true;
      const task = await this.store.firmwareTasks.byBinary(id);
      if (task && canViewTask(caller, task)) return true;
      const found = await this.store.binaryRelations.foundIn(id);
      if (!found) return false;
      if (found.user_id === caller.id) return true;
      id = found.parent_binary_id;
    }
    return false;
  }

  private async visibleBinary(caller: Caller, binaryId: number): Promise<void> {
    if (!(await this.visible(caller, binaryId)))
      throw errors.resourceNotFound().withDetail(`binary ${binaryId} does not exist or is not visible to you`);
  }

  /** Rows as the wire has them: an analysis or a firmware task the caller may not see is left out. */
  private async wire(caller: Caller, rows: RelativeRow[]) {
    const ids = rows.map((r) => r.analysis_id).filter((id) => id !== null);
    const seen = new Set((await this.store.analyses.getMany(ids)).filter((a) => canView(caller, a)).map((a) => a.id));
    // Only a firmware image is a task's binary: at most the parent of a listing, so one lookup each.
    const tasks = new Set<string>();
    for (const r of rows) {
      const task = r.task_id === null ? undefined : await this.store.firmwareTasks.get(r.task_id);
      if (task && canViewTask(caller, task)) tasks.add(task.id);
    }
    return rows.map((r) => ({
      ...r,
      analysis_id: r.analysis_id !== null && seen.has(r.analysis_id) ? r.analysis_id : null,
      task_id: r.task_id !== null && tasks.has(r.task_id) ? r.task_id : null,
    }));
  }

  async related(caller: Caller, binaryId: number): Promise<Static<typeof ChildBinariesResponse>> {
    await this.visibleBinary(caller, binaryId);
    const children = await this.wire(caller, await this.store.binaryRelations.children(binaryId));
    const found = await this.store.binaryRelations.foundIn(binaryId);
    // The parent only when the caller may see it too (a public dump of a private sample does not show it).
    const parent =
      found && (await this.visible(caller, found.parent_binary_id))
        ? await this.store.binaryRelations.relative(found.parent_binary_id)
        : undefined;
    return { children, parent: parent ? (await this.wire(caller, [parent]))[0]! : null };
  }

  /** The status of the task that finds the binary's children: its firmware unpacking, or its analysis's emulated run. */
  async status(caller: Caller, binaryId: number): Promise<Static<typeof BinariesRelatedStatusResponse>> {
    await this.visibleBinary(caller, binaryId);
    const task = await this.store.firmwareTasks.byBinary(binaryId);
    if (task) return { status: FIRMWARE_STATUS[task.status as FirmwareStatus] };
    const a = await this.store.analyses.byBinaryId(binaryId);
    const run = a && (await this.store.dynamicExecutions.get(a.id));
    return { status: run ? DYNAMIC_STATUS[run.status] : 'NONE' };
  }
}
