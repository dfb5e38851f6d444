import { isModelName } from '../contracts/index.js';
import { errors } from '../shared/errors.js';
import type { CollectionFilter, CollectionWithOwner, NewCollection, Store } from '../store/index.js';
import type { Caller } from './access.js';
import { namesBy } from './collection-views.js';

/** Bounds on what one request may put in a collection (422 beyond them, naming the field). */
export const COLLECTION_LIMITS = { name: 200, description: 10_000, tag: 100, tags: 100, binaries: 10_000 };

export interface CollectionFields {
  name?: string;
  description?: string;
  scope?: string;
}

/** A new collection of the caller; `modelName` null takes the first binary's model (none without one). */
export type NewCollectionInput = Omit<NewCollection, 'userId'>;

const invalid = (field: string, reason: string) => errors.validation().withFields([{ field: `body.${field}`, reason }]);

/** Refuses names, descriptions and tags past their bounds, and blank names. */
function checkFields(f: CollectionFields) {
  if (f.name !== undefined && (f.name.trim() === '' || f.name.length > COLLECTION_LIMITS.name))
    throw invalid('collection_name', `must be 1 to ${COLLECTION_LIMITS.name} characters, not blank`);
  if (f.description !== undefined && f.description.length > COLLECTION_LIMITS.description)
    throw invalid('description', `must be at most ${COLLECTION_LIMITS.description} characters`);
}

function checkTags(tags: string[]) {
  if (tags.length > COLLECTION_LIMITS.tags) throw invalid('tags', `at most ${COLLECTION_LIMITS.tags} tags`);
  if (tags.some((t) => t.trim() === '' || t.length > COLLECTION_LIMITS.tag))
    throw invalid('tags', `each tag must be 1 to ${COLLECTION_LIMITS.tag} characters, not blank`);
}

/** The caller as the store's visibility rules see them. */
export const viewer = (caller: Caller) => ({ id: caller.id, teamId: caller.teamId });

/**
 * Collections and the access rules on them: a collection is seen as its scope allows (PRIVATE: owner;
 * TEAM: owner's team; PUBLIC, PROTECTED: everyone) and changed by its owner alone. Its binaries are
 * analyses' binary ids, and only ones the caller can see may be put in; readers see only the members they
 * can see themselves. Shared by the /v2 and /v3 views.
 */
export class CollectionsService {
  constructor(private readonly store: Store) {}

  /** A collection the caller may see; one they may not is reported missing, so its existence does not leak. */
  async visible(caller: Caller, id: number): Promise<CollectionWithOwner> {
    const c = await this.store.collections.get(id);
    if (!c || !canViewCollection(caller, c)) throw errors.collectionNotFound(id);
    return c;
  }

  /** A collection the caller owns: missing or invisible → 404, visible but someone else's → 403. */
  async owned(caller: Caller, id: number): Promise<CollectionWithOwner> {
    const c = await this.visible(caller, id);
    if (c.user_id !== caller.id) throw errors.forbidden();
    return c;
  }

  /** Every id must name an analysis's binary the caller can see (404 for the first that does not). */
  private async checkBinaries(caller: Caller, ids: number[]) {
    if (ids.length > COLLECTION_LIMITS.binaries)
      throw invalid('binaries', `at most ${COLLECTION_LIMITS.binaries} binaries`);
    const seen = await this.store.collections.visibleBinaryIds(ids, viewer(caller));
    const missing = ids.find((id) => !seen.has(id));
    if (missing !== undefined) throw errors.binaryNotFound(missing);
  }

  async create(caller: Caller, c: NewCollectionInput): Promise<CollectionWithOwner> {
    checkFields(c);
    checkTags(c.tags);
    await this.checkBinaries(caller, c.binaryIds);
    let modelName = c.modelName;
    if (modelName === null && c.binaryIds.length > 0)
      modelName = (await this.store.analyses.byBinaryId(c.binaryIds[0]!))?.model_name ?? null;
    const id = await this.store.collections.create({ ...c, modelName, userId: caller.id });
    return this.visible(caller, id);
  }

  async update(caller: Caller, id: number, set: CollectionFields): Promise<CollectionWithOwner> {
    await this.owned(caller, id);
    checkFields(set);
    await this.store.collections.update(id, set);
    return this.visible(caller, id);
  }

  async delete(caller: Caller, id: number): Promise<void> {
    await this.owned(caller, id);
    await this.store.collections.delete(id);
  }

  /** Replaces (or adds to) the collection's binaries; returns the collection as it now is. */
  async setBinaries(caller: Caller, id: number, ids: number[], mode: 'replace' | 'add') {
    await this.owned(caller, id);
    await this.checkBinaries(caller, ids);
    if (mode === 'replace') await this.store.collections.replaceBinaries(id, ids);
    else await this.store.collections.addBinaries(id, ids);
    return this.visible(caller, id);
  }

  async setTags(caller: Caller, id: number, tags: string[]): Promise<string[]> {
    await this.owned(caller, id);
    checkTags(tags);
    await this.store.collections.replaceTags(id, tags);
    return this.tagNames(id);
  }

  async tagNames(id: number): Promise<string[]> {
    return (await this.store.collections.tags([id])).map((t) => t.name);
  }

  /** The collection's members the caller can see, a page at a time, by binary id. */
  binaries(caller: Caller, id: number, page: { offset: number; limit: number; search?: string | null }) {
    return this.store.collections.binaries(id, viewer(caller), page);
  }

  binaryCount(caller: Caller, id: number): Promise<number> {
    return this.store.collections.binaryCount(id, viewer(caller));
  }

  /** Visible collections, each with its visible size and its tags. */
  async list(caller: Caller, filter: CollectionFilter) {
    if (filter.modelName && !isModelName(filter.modelName)) throw errors.modelNotFound(filter.modelName);
    const rows = await this.store.collections.list(viewer(caller), filter);
    const tags = namesBy(await this.store.collections.tags(rows.map((r) => r.id)), 'collection_id');
    return rows.map((r) => ({ ...r, tags: tags.get(r.id) ?? [] }));
  }
}

/** services/access.ts's rule for collections (the SQL form is store/visibility.ts `collectionVisible`). */
export const canViewCollection = (
  caller: Caller,
  c: Pick<CollectionWithOwner, 'user_id' | 'scope' | 'owner_team_id'>,
) =>
  c.user_id === caller.id ||
  c.scope === 'PUBLIC' ||
  c.scope === 'PROTECTED' ||
  (c.scope === 'TEAM' && caller.teamId !== null && c.owner_team_id === caller.teamId);
