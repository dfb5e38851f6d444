import { sql, type SqlBool } from 'kysely';

/** A LIKE pattern matching `text` anywhere, its wildcards taken literally (use with ESCAPE '\\'). */
export const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** `column` contains `text`, ignoring case, wildcards in `text` taken literally. */
export const containsText = (column: string, text: string) =>
  sql<SqlBool>`lower(${sql.ref(column)}) like ${likePattern(text.toLowerCase())} escape '\\'`;
