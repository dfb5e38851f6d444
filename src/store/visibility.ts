import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { Viewer } from './analyses.js';

/**
 * The access rule of services/access.ts `canView`, in SQL, for queries that must filter before paging:
 * an analysis (alias `a`) is visible to its owner, to everyone when PUBLIC, and to its owner's team (the
 * owner row joined as `u`).
 */
export function analysisVisible(viewer: Viewer, a = 'a', u = 'u'): RawBuilder<SqlBool> {
  const own = sql<SqlBool>`(${sql.ref(`${a}.user_id`)} = ${viewer.id} or ${sql.ref(`${a}.analysis_scope`)} = 'PUBLIC'`;
  return viewer.teamId === null
    ? sql<SqlBool>`${own})`
    : sql<SqlBool>`${own} or ${sql.ref(`${u}.team_id`)} = ${viewer.teamId})`;
}

/**
 * A collection (alias `c`, owner joined as `o`) the viewer may see: PUBLIC and PROTECTED ones everyone
 * sees, TEAM ones the owner's team, PRIVATE ones their owner alone.
 */
export function collectionVisible(viewer: Viewer, c = 'c', o = 'o'): RawBuilder<SqlBool> {
  const open = sql<SqlBool>`(${sql.ref(`${c}.user_id`)} = ${viewer.id} or ${sql.ref(`${c}.scope`)} in ('PUBLIC', 'PROTECTED')`;
  return viewer.teamId === null
    ? sql<SqlBool>`${open})`
    : sql<SqlBool>`${open} or (${sql.ref(`${c}.scope`)} = 'TEAM' and ${sql.ref(`${o}.team_id`)} = ${viewer.teamId}))`;
}
