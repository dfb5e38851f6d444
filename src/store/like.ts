/** A LIKE pattern matching `text` anywhere, its wildcards taken literally (use with ESCAPE '\\'). */
export const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
