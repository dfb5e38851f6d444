// Known answers for tlshDigest, computed once from the inputs of fixtures.ts and the corpus files by
// py-tlsh's extension module built from TLSH 4.12.1 (`tlsh.hash`: 128 buckets, 1-byte checksum, T1 prefix).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CORPUS_FILES, GENERATED, corpusFile, type GeneratedInput } from '../../../test/helpers/engine/fuzzy.js';
import { tlshDigest } from './tlsh.js';

// TNULL: under 50 bytes (empty, random-49), or counts too uniform to rank (zeros-1000: one bucket set).
const GENERATED_WANT: Record<GeneratedInput, string> = {
  empty: 'TNULL',
  'random-49': 'TNULL',
  'random-50': 'T19E9002824681747296246C4454D420D652291D31541466094FCC228182BE5699682081',
  'random-256': 'T1FDD095514CCF00E157AF5C14F774513453935819F13D5745F7E4C5003D3171512C1C59',
  'random-4096': 'T1AD817E17920C416B8F67DAF75648F244CBE8FB7EF59A88D6378380A8487174D10CE027',
  'random-65536': 'T1B353023B856E063633CEED9056CD5DEB42682AD983AD5ADC25C3C0857A7C376133A893',
  'random-1mib': 'T12D2533F35C6B2C09E857B4F8927D39A938720644D2E9E9E0F476158B3D8296DCB351C3',
  'random-3000000': 'T1A2D533D5852A879A276085C87FC0F04D97A83BB7E747E223AB65D3240E0D910E5FCBB5',
  'text-10000': 'T16322019A621CA3D8B4CF2CCC93CDE8B7D6CCCA20B2211916B470B0066C4C262DCEC562',
  'zeros-1000': 'TNULL',
  'random-100000-then-zeros': 'T199A312E50026AC93131C76A74807FE5475ECF5592208DCAF13D5BEC2889ED8E98A8FA1',
  'blocks-200000': 'T199140281619639C5D8F16B702A4B1C49AD61CC327C90ABF27612FD9BCEEC1D8F442E97',
};
for (const [name, want] of Object.entries(GENERATED_WANT) as [GeneratedInput, string][]) {
  test(`tlshDigest: ${name}`, () => assert.equal(tlshDigest(GENERATED[name]()), want));
}

const CORPUS_WANT: Record<keyof typeof CORPUS_FILES, string> = {
  smallElf: 'T1C5628607EBB58E7EC864437840EB473062B6BC18A23247272B6477342D837A5CF575EA',
  staticElf: 'T10F056B8BE5E710BCC19BC47047A7D5A3BA76389441227F7B65C8D7302E13F605A6CBA2',
  pe: 'T18F356D47E2A324DCC96BC27487579373B930F8245135BFBB9590EB312E12D906B5EB28',
  busybox: 'T1FD858EA9E90F3D82D3C7F27CDF5987A1712B70A4D32681B23A51434DE5C6EE8CAB6111',
};
for (const [key, want] of Object.entries(CORPUS_WANT)) {
  const file = CORPUS_FILES[key as keyof typeof CORPUS_FILES];
  test(`tlshDigest: corpus ${file}`, (t) => {
    const bytes = corpusFile(t, file);
    if (bytes) assert.equal(tlshDigest(bytes), want);
  });
}
