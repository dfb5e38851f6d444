// Text in the reference's placeholder form, read the way its clients read it: every `<KIND_n>` token
// replaced by the spelling its map gives. Used to check that a language model's rewrite still resolves
// through the maps the engine made for it, to rename variables through the maps, and to write the model's
// summary with the same tokens (docs/decisions.md, "AI refinement").
import type { FunctionMapping } from '../contracts/index.js';

const TOKEN = /<[A-Z_]+_\d+>/;
const TOKENS = new RegExp(TOKEN.source, 'g');

/** Each token of the mapping and the spelling it stands for. */
function spellings(mapping: FunctionMapping): Map<string, string> {
  const out = new Map<string, string>();
  for (const [token, f] of Object.entries(mapping.inverse_function_map)) out.set(token, f.name);
  for (const [token, s] of Object.entries(mapping.inverse_string_map)) out.set(token, s.string);
  for (const [key, map] of Object.entries(mapping))
    if (key.startsWith('unmatched_'))
      for (const [token, v] of Object.entries(map as Record<string, { value: string }>)) out.set(token, v.value);
  return out;
}

/** `raw` with every token spelled out, or null when one of them has no spelling in the mapping. */
export function spelledOut(raw: string, mapping: FunctionMapping): string | null {
  const spelled = spellings(mapping);
  let unresolved = false;
  const text = raw.replace(TOKENS, (t) => spelled.get(t) ?? ((unresolved = true), t));
  return unresolved ? null : text;
}

/**
 * The mapping with the variables `renames` names given their new names (`unmatched_vars` maps each token to
 * its spelling, so a rename there renames every use, as a client's rename does).
 */
export function renamedVariables(
  mapping: FunctionMapping,
  renames: ReadonlyArray<{ name: string; suggestion: string }>,
): FunctionMapping {
  const to = new Map(renames.map((r) => [r.name, r.suggestion]));
  const vars = Object.fromEntries(
    Object.entries(mapping.unmatched_vars).map(([t, v]) => [t, { value: to.get(v.value) ?? v.value }]),
  );
  return { ...mapping, unmatched_vars: vars };
}

/**
 * Prose about the function with the names of its functions, variables and data written as the mapping's
 * tokens, whole words only, so that a client substituting the maps into it (as into the raw C) shows the
 * names the user gave them since. Prose that already holds something shaped like a token is left as it
 * is: it would not spell itself back.
 */
export function proseWithPlaceholders(prose: string, mapping: FunctionMapping): string {
  if (TOKEN.test(prose)) return prose;
  const tokens = new Map<string, string>();
  const add = (map: Record<string, { value: string }>) => {
    for (const [t, v] of Object.entries(map)) if (!tokens.has(v.value)) tokens.set(v.value, t);
  };
  for (const [t, f] of Object.entries(mapping.inverse_function_map)) if (!tokens.has(f.name)) tokens.set(f.name, t);
  add(mapping.unmatched_functions);
  add(mapping.unmatched_vars);
  add(mapping.unmatched_global_vars);
  return prose.replace(/[A-Za-z_][A-Za-z0-9_]*/g, (word) => tokens.get(word) ?? word);
}
