// A DIE and the DIEs it completes: a concrete out-of-line instance of an inlined function points at its
// abstract instance (DW_AT_abstract_origin), a definition at its declaration (DW_AT_specification). Names,
// types and flags missing on the first come from the next.
import { has, referencedDie } from './attributes.js';
import { AT } from './constants.js';
import type { Die } from './die.js';

/** Producers chain two or three; a longer chain is a loop or damage. */
const MAX_CHAIN = 8;

export function originChain(die: Die): Die[] {
  const chain = [die];
  for (let d = die; chain.length < MAX_CHAIN;) {
    const next: Die | null = referencedDie(d, AT.abstract_origin) ?? referencedDie(d, AT.specification);
    if (!next || chain.includes(next)) break;
    chain.push(next);
    d = next;
  }
  return chain;
}

/** The first DIE of the chain that has `at`, or null. */
export function withAttribute(chain: Die[], at: number): Die | null {
  return chain.find((d) => has(d, at)) ?? null;
}
