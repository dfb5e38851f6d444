// A deterministic description of what a decompiled function does, from facts about it: what it calls (in the
// binary and in libraries), the strings it uses, notable constants in its C, the capabilities matched in it,
// and its callers and callees. Same facts, same words: no model, nothing sampled.
import type { DecompiledSymbol } from './program.js';
import { significant, tokenize } from './c-tokens.js';

export interface FunctionFacts {
  name: string;
  /** What its C refers to (the decompiler's record). */
  symbols: readonly DecompiledSymbol[];
  /** Its C, for constants and string literals. */
  text: string;
  /** Strings the analysis found it referring to. */
  strings: readonly string[];
  capabilities: readonly string[];
  callers: readonly string[];
  callees: readonly string[];
}

/** Items listed at most in each sentence; the rest are counted. */
const LIST = 8;

const listed = (items: readonly string[]) => {
  const shown = items.slice(0, LIST).join(', ');
  return items.length > LIST ? `${shown} and ${items.length - LIST} more` : shown;
};
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * Constants worth naming: hexadecimal literals of at least 0x100 (the decompiler writes small values in decimal
 * and sizes, counts and offsets are mostly small), distinct, in order of appearance.
 */
export function notableConstants(text: string): string[] {
  const seen = new Set<string>();
  for (const t of tokenize(text)) {
    if (!significant(t) || t.kind !== 'number') continue;
    const m = /^0[xX]([0-9a-fA-F]+)/.exec(t.text);
    if (m && BigInt(`0x${m[1]}`) >= 0x100n) seen.add(`0x${m[1]!.toLowerCase()}`);
  }
  return [...seen];
}

export function functionSummary(f: FunctionFacts): string {
  const own = (k: DecompiledSymbol['kind']) => f.symbols.filter((s) => s.kind === k && s.name !== f.name);
  const internal = own('function').map((s) => s.name);
  const library = own('external').map((s) => s.name);
  const literals = own('string').map((s) => JSON.stringify(s.name));
  const strings = [...new Set([...literals, ...f.strings.map((s) => JSON.stringify(s))])];
  const constants = notableConstants(f.text);
  const out = [
    `${f.name} is called by ${f.callers.length ? `${plural(f.callers.length, 'function')} (${listed(f.callers)})` : 'no function of the binary'} and calls ${f.callees.length ? `${plural(f.callees.length, 'function')} (${listed(f.callees)})` : 'none'}.`,
  ];
  if (library.length) out.push(`It uses ${plural(library.length, 'library function')}: ${listed(library)}.`);
  if (internal.length)
    out.push(`Its C refers to ${plural(internal.length, 'function')} of the binary: ${listed(internal)}.`);
  if (strings.length) out.push(`It refers to ${plural(strings.length, 'string')}: ${listed(strings)}.`);
  if (constants.length) out.push(`Notable constants: ${listed(constants)}.`);
  if (f.capabilities.length) out.push(`Capabilities matched in it: ${listed(f.capabilities)}.`);
  return out.join(' ');
}
