// Known answers for the three digests of this folder, computed once from the inputs of
// test/helpers/engine/fuzzy.ts and the corpus files by the reference tools:
// - crc32: Python 3.11's `zlib.crc32` (zlib 1.2.13);
// - tlsh: py-tlsh's extension module built from TLSH 4.12.1 (`tlsh.hash`: 128 buckets, 1-byte checksum, T1 prefix);
//   TNULL under 50 bytes (empty, random-49) or for counts too uniform to rank (zeros-1000: one bucket set);
// - ssdeep: the ssdeep 2.14.1 CLI (Debian 2.14.1+git20180629.57fcfff-3, `ssdeep -s -b FILE`); text-10000 keeps its
//   run of 'H's (the CLI eliminates no repeated letters); empty and all-zero inputs give "3::" (the rolling hash
//   never leaves 0, so no piece ends).
import {
  knownAnswers,
  type CORPUS_FILES,
  type Digests,
  type GeneratedInput,
} from '../../../test/helpers/engine/fuzzy.js';

const GENERATED_WANT: Record<GeneratedInput, Digests> = {
  empty: { crc32: '00000000', tlsh: 'TNULL', ssdeep: '3::' },
  'random-49': { crc32: '76d65de7', tlsh: 'TNULL', ssdeep: '3:83DchgsQjJ5n4f+8fqCcd9:83Dchgxb4m8ffs9' },
  'random-50': {
    crc32: 'e6827c61',
    tlsh: 'T19E9002824681747296246C4454D420D652291D31541466094FCC228182BE5699682081',
    ssdeep: '3:W2WzZYVY+6Snq+:J6yChSq+',
  },
  'random-256': {
    crc32: '839cb9e6',
    tlsh: 'T1FDD095514CCF00E157AF5C14F774513453935819F13D5745F7E4C5003D3171512C1C59',
    ssdeep: '6:7hWz2NN5Bx5gLbK1e4LyDqFHD/s7rAhGLpb/:ADGWqFw7rAhaT',
  },
  'random-4096': {
    crc32: '6a82d781',
    tlsh: 'T1AD817E17920C416B8F67DAF75648F244CBE8FB7EF59A88D6378380A8487174D10CE027',
    ssdeep: '96:4jj+l0FxzvX/vZT+qdSoyfP4cqLIsyuASXOT9S+Bvg87Xs/mMqh9:TWxzXHJ+cpy3qCr9Sjibr9',
  },
  'random-65536': {
    crc32: '342060a9',
    tlsh: 'T1B353023B856E063633CEED9056CD5DEB42682AD983AD5ADC25C3C0857A7C376133A893',
    ssdeep: '1536:df8AHJCGgfM3k84q/jHurOnp0sIkE2tSvl4wwD1JX:dkAHJCZx83urKas82svwLX',
  },
  'random-1mib': {
    crc32: '20f3d9cf',
    tlsh: 'T12D2533F35C6B2C09E857B4F8927D39A938720644D2E9E9E0F476158B3D8296DCB351C3',
    ssdeep: '24576:pGT4QE+9DxEnbr4KpQqYD1RrwoApHPGi+ZqH:aE+InbhlYpVApvgK',
  },
  'random-3000000': {
    crc32: '73d497de',
    tlsh: 'T1A2D533D5852A879A276085C87FC0F04D97A83BB7E747E223AB65D3240E0D910E5FCBB5',
    ssdeep: '49152:+J3U0Ru6gmR8kGiqPNI8C2S/wZeXROWFUyF7JvGDOs2qgjwRW+MgCzSlrMgIZcI:+u0xgwtq1hewoXIHU7JvG6s27+rOSqZ',
  },
  'text-10000': {
    crc32: '6a79a364',
    tlsh: 'T16322019A621CA3D8B4CF2CCC93CDE8B7D6CCCA20B2211916B470B0066C4C262DCEC562',
    ssdeep: '24:FkHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHH6:FH',
  },
  'zeros-1000': { crc32: '060b1780', tlsh: 'TNULL', ssdeep: '3::' },
  'random-100000-then-zeros': {
    crc32: '148e956c',
    tlsh: 'T199A312E50026AC93131C76A74807FE5475ECF5592208DCAF13D5BEC2889ED8E98A8FA1',
    ssdeep: '3072:kNM0ftqNsyfEx6hiKafFqtcMGE5hSN0d:LXEfFwGETW',
  },
  'blocks-200000': {
    crc32: '22775008',
    tlsh: 'T199140281619639C5D8F16B702A4B1C49AD61CC327C90ABF27612FD9BCEEC1D8F442E97',
    ssdeep: '3072:h/V3iqG5o01ELrxnoExnn9cXRk4Yx6mIrZ8Usu:h/V3sq0WxoEZn9ck4o6ms',
  },
};

const CORPUS_WANT: Record<keyof typeof CORPUS_FILES, Digests> = {
  smallElf: {
    crc32: 'bd22aad0',
    tlsh: 'T1C5628607EBB58E7EC864437840EB473062B6BC18A23247272B6477342D837A5CF575EA',
    ssdeep: '96:REgUmT2B+BWSL6R2raGMsYDH3yviVYmxAhgL6:RRiw4SuR2raG0DH3yviemxA',
  },
  staticElf: {
    crc32: '7d2e474b',
    tlsh: 'T10F056B8BE5E710BCC19BC47047A7D5A3BA76389441227F7B65C8D7302E13F605A6CBA2',
    ssdeep: '12288:Ilx8lAwGbsx+J06ImY980UkCwDgiZ74TmGwCqp+dnS4fLOxYj2:IlmAwTx1CwD9Z74Tm/CRdnS4fLQl',
  },
  pe: {
    crc32: 'b4133b73',
    tlsh: 'T18F356D47E2A324DCC96BC27487579373B930F8245135BFBB9590EB312E12D906B5EB28',
    ssdeep: '24576:3rgq1ewRUVR51BNbY88xF2NXTIHxTEcNIagEdBb:38Bwof1PYbxUNXTI16agEdBb',
  },
  busybox: {
    crc32: '7f1d2c52',
    tlsh: 'T1FD858EA9E90F3D82D3C7F27CDF5987A1712B70A4D32681B23A51434DE5C6EE8CAB6111',
    ssdeep: '24576:30wYcJNUZMX3519nBeGXTb4/bQuSPkbxRcEOLrsTkswkSS:D7F3vv4kPMcE6gTksx',
  },
};

knownAnswers(GENERATED_WANT, CORPUS_WANT);
