import { sql, type SqlBool } from 'kysely';

/** The row whose id is `ownerRef` carries the tag `name` (in `analysis_tags` or `collection_tags`). */
export function carriesTag(table: 'analysis_tags' | 'collection_tags', ownerRef: string, name: string) {
  const key = table === 'analysis_tags' ? 'analysis_id' : 'collection_id';
  return sql<SqlBool>`exists (select 1 from ${sql.table(table)} tg
    where ${sql.ref(`tg.${key}`)} = ${sql.ref(ownerRef)} and tg.name = ${name})`;
}
