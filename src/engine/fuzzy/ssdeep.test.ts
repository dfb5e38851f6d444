// Known answers for ssdeepDigest, computed once from the inputs of fixtures.ts and the corpus files by
// the ssdeep 2.14.1 CLI (Debian 2.14.1+git20180629.57fcfff-3, `ssdeep -s -b FILE`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CORPUS_FILES, GENERATED, corpusFile, type GeneratedInput } from '../../../test/helpers/engine/fuzzy.js';
import { ssdeepDigest } from './ssdeep.js';

// text-10000 keeps its run of 'H's: the CLI eliminates no repeated letters. Empty and all-zero inputs give
// "3::" (the rolling hash never leaves 0, so no piece ends).
const GENERATED_WANT: Record<GeneratedInput, string> = {
  empty: '3::',
  'random-49': '3:83DchgsQjJ5n4f+8fqCcd9:83Dchgxb4m8ffs9',
  'random-50': '3:W2WzZYVY+6Snq+:J6yChSq+',
  'random-256': '6:7hWz2NN5Bx5gLbK1e4LyDqFHD/s7rAhGLpb/:ADGWqFw7rAhaT',
  'random-4096': '96:4jj+l0FxzvX/vZT+qdSoyfP4cqLIsyuASXOT9S+Bvg87Xs/mMqh9:TWxzXHJ+cpy3qCr9Sjibr9',
  'random-65536': '1536:df8AHJCGgfM3k84q/jHurOnp0sIkE2tSvl4wwD1JX:dkAHJCZx83urKas82svwLX',
  'random-1mib': '24576:pGT4QE+9DxEnbr4KpQqYD1RrwoApHPGi+ZqH:aE+InbhlYpVApvgK',
  'random-3000000':
    '49152:+J3U0Ru6gmR8kGiqPNI8C2S/wZeXROWFUyF7JvGDOs2qgjwRW+MgCzSlrMgIZcI:+u0xgwtq1hewoXIHU7JvG6s27+rOSqZ',
  'text-10000': '24:FkHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHH6:FH',
  'zeros-1000': '3::',
  'random-100000-then-zeros': '3072:kNM0ftqNsyfEx6hiKafFqtcMGE5hSN0d:LXEfFwGETW',
  'blocks-200000': '3072:h/V3iqG5o01ELrxnoExnn9cXRk4Yx6mIrZ8Usu:h/V3sq0WxoEZn9ck4o6ms',
};
for (const [name, want] of Object.entries(GENERATED_WANT) as [GeneratedInput, string][]) {
  test(`ssdeepDigest: ${name}`, () => assert.equal(ssdeepDigest(GENERATED[name]()), want));
}

const CORPUS_WANT: Record<keyof typeof CORPUS_FILES, string> = {
  smallElf: '96:REgUmT2B+BWSL6R2raGMsYDH3yviVYmxAhgL6:RRiw4SuR2raG0DH3yviemxA',
  staticElf: '12288:Ilx8lAwGbsx+J06ImY980UkCwDgiZ74TmGwCqp+dnS4fLOxYj2:IlmAwTx1CwD9Z74Tm/CRdnS4fLQl',
  pe: '24576:3rgq1ewRUVR51BNbY88xF2NXTIHxTEcNIagEdBb:38Bwof1PYbxUNXTI16agEdBb',
  busybox: '24576:30wYcJNUZMX3519nBeGXTb4/bQuSPkbxRcEOLrsTkswkSS:D7F3vv4kPMcE6gTksx',
};
for (const [key, want] of Object.entries(CORPUS_WANT)) {
  const file = CORPUS_FILES[key as keyof typeof CORPUS_FILES];
  test(`ssdeepDigest: corpus ${file}`, (t) => {
    const bytes = corpusFile(t, file);
    if (bytes) assert.equal(ssdeepDigest(bytes), want);
  });
}
