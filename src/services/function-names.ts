import type { Static } from '@sinclair/typebox';
import type { FunctionNameHistory, FunctionRenameMap, NAME_SOURCE_TYPES } from '../contracts/index.js';
import { errors } from '../shared/errors.js';
import type { Store } from '../store/index.js';
import { canView, visibleFunction, type Caller } from './access.js';

// Bounds the contract leaves open. Mangled C++/Rust names run to a few KiB; 8 KiB characters is room to spare.
const MAX_NAME_CHARS = 8192;
/** Functions per batch rename: one transaction, so one request cannot hold the database for long. */
const MAX_BATCH = 10_000;
/** History entries returned: the latest ones (the list is not paged). */
const HISTORY_LIMIT = 1000;

// Names are shown in listings, logs and disassembly: no control characters, not blank.
const CONTROL = /[\u0000-\u001f\u007f]/;
const validName = (s: string) => s.trim().length > 0 && s.length <= MAX_NAME_CHARS && !CONTROL.test(s);

type Rename = Static<typeof FunctionRenameMap>;

/**
 * Renaming functions, their name history, and reverting to an entry of it. Renaming is owner-only, like
 * every other change to an analysis (team members and everyone else who can see it get 403); the
 * history is visible to whoever can see the analysis.
 */
export class FunctionNamesService {
  constructor(private readonly store: Store) {}

  /** All or nothing: 422 for any bad name, 404 when any function is missing or hidden, 403 when any is not owned. */
  async rename(caller: Caller, renames: Rename[]) {
    const bad = renames.find((r) => !validName(r.new_name) || !validName(r.new_mangled_name));
    if (renames.length > MAX_BATCH || bad) {
      const reason = bad
        ? `function ${bad.function_id}: names must be 1 to ${MAX_NAME_CHARS} characters, not blank, without control characters`
        : `at most ${MAX_BATCH} renames a request`;
      throw errors.validation().withFields([{ field: 'body', reason }]);
    }
    const ids = [...new Set(renames.map((r) => r.function_id))];
    const owners = new Map((await this.store.functions.owners(ids)).map((o) => [o.id, o]));
    const hidden = ids.find((id) => !owners.has(id) || !canView(caller, owners.get(id)!));
    if (hidden !== undefined) throw errors.functionNotFound(hidden);
    if ([...owners.values()].some((o) => o.user_id !== caller.id)) throw errors.forbidden();
    await this.store.nameHistory.applyNames(
      renames.map((r) => ({
        functionId: r.function_id,
        name: r.new_name,
        mangledName: r.new_mangled_name,
        sourceType: 'USER',
        userId: caller.id,
      })),
    );
    return {};
  }

  async history(caller: Caller, functionId: number): Promise<Static<typeof FunctionNameHistory>[]> {
    const { f } = await visibleFunction(this.store, caller, functionId);
    return (await this.store.nameHistory.list(f.id, HISTORY_LIMIT)).map((e) => ({
      history_id: e.id,
      change_made_by: e.username,
      function_name: e.name,
      mangled_name: e.mangled_name,
      is_debug: e.debug === 1,
      source_type: e.name_source_type as (typeof NAME_SOURCE_TYPES)[number],
      created_at: new Date(e.created_at).toISOString(),
    }));
  }

  /**
   * Gives the function the name of one of its history entries again (its type, source and evidence too),
   * as a new entry made by the caller: history only grows.
   */
  async revert(caller: Caller, functionId: number, historyId: number) {
    const { f, analysis } = await visibleFunction(this.store, caller, functionId);
    if (analysis.user_id !== caller.id) throw errors.forbidden();
    if (!(await this.store.nameHistory.revert(f.id, historyId, caller.id)))
      throw errors.nameHistoryNotFound(historyId, f.id);
    return {};
  }
}
