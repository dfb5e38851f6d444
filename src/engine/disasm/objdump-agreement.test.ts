// The engine's decoders against GNU objdump (binutils-multiarch) on the corpus: every direct branch or
// call target objdump prints, and the PC-relative addresses it resolves (AArch64 ADR/ADRP/LDR literal,
// ARM literal loads, x86 RIP-relative operands), at every address where both walks put an instruction.
// MIPS is compared on its whole text too (the formatter follows objdump's style). Skips without objdump.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import {
  CORPUS,
  corpusEntries,
  elfSections,
  largest,
  objdumpFor,
  objdumpSection,
  readCorpus,
  type CorpusEntry,
  type ObjdumpLine,
} from '../../../test/helpers/engine/disasm.js';
import { decodeArm } from './arm-decoder.js';
import { createDecoder } from './index.js';
import { newDecoded, type Decoded, type DecoderMode } from './instruction.js';

interface Check {
  /** The address objdump gives for this line, or null when it gives none to compare. */
  expected(line: ObjdumpLine): number | null;
  /** The same address from our decoder. */
  actual(d: Decoded): number;
}

const lastHex = (s: string): number | null => {
  const m = /(?:^|[\s,])(?:0x)?([0-9a-f]+)$/.exec(s);
  return m ? parseInt(m[1]!, 16) : null;
};
const commentHex = (comment: string): number | null => {
  const m = /^(?:@|#|\/\/)\s*\(?(?:0x)?([0-9a-f]+)/.exec(comment);
  return m ? parseInt(m[1]!, 16) : null;
};

const decodeArmAt = (bytes: Uint8Array, offset: number, vaddr: number): Decoded | undefined => {
  const d = newDecoded();
  return decodeArm(bytes, offset, vaddr, d) ? d : undefined;
};

const target: Check = { expected: () => null, actual: (d) => d.target };
const branchTarget = (mnemonics: RegExp): Check => ({
  ...target,
  expected: (l) => (mnemonics.test(l.mnemonic) ? lastHex(l.operands) : null),
});

interface ArchCheck {
  mode: DecoderMode;
  arch: string;
  objdumpArch: string;
  entries: () => CorpusEntry[];
  args?: string[];
  checks: Record<string, Check>;
}

const unstripped = (arch: string) => () =>
  corpusEntries().filter((e) => e.arch === arch && !e.stripped && e.format === 'ELF');

const ARCHS: ArchCheck[] = [
  {
    mode: 'mipsel',
    arch: 'mips',
    objdumpArch: 'mips',
    entries: unstripped('mips'),
    checks: {
      'branch targets': branchTarget(/^(b|bal|j|jal|beqz?l?|bnez?l?|b[lg][et]zl?|bgezall?|bltzall?|bc1[tf]l?)$/),
    },
  },
  {
    mode: 'arm64',
    arch: 'aarch64',
    objdumpArch: 'aarch64',
    entries: unstripped('aarch64'),
    checks: {
      'branch targets': branchTarget(/^(b|bl|b\.\w+|bc\.\w+|cbn?z|tbn?z)$/),
      'adr/ldr literal': {
        expected: (l) =>
          /^(adr|ldr|ldrsw|prfm)$/.test(l.mnemonic) && !l.operands.includes('[') ? lastHex(l.operands) : null,
        actual: (d) => d.ref,
      },
      'adrp pages': { expected: (l) => (l.mnemonic === 'adrp' ? lastHex(l.operands) : null), actual: (d) => d.hiValue },
    },
  },
  {
    mode: 'thumb',
    arch: 'arm',
    objdumpArch: 'arm',
    entries: unstripped('arm'),
    checks: {
      'branch targets': branchTarget(/^(b|bl|blx|cbn?z|b(eq|ne|cs|cc|hs|lo|mi|pl|vs|vc|hi|ls|ge|lt|gt|le)?(\.[nw])?)$/),
      'literal loads': {
        expected: (l) => (/^(ldr|vldr)/.test(l.mnemonic) && l.operands.includes('[pc') ? commentHex(l.comment) : null),
        actual: (d) => d.ref,
      },
    },
  },
  {
    mode: 'x86_64',
    arch: 'x86_64',
    objdumpArch: 'i386',
    entries: () => [largest('x86_64', 'ELF', false)!].filter(Boolean),
    args: ['-M', 'intel'],
    checks: {
      'branch targets': branchTarget(/^(jmp|j[a-z]+|call|loop\w*|xbegin)$/),
      'rip-relative refs': {
        expected: (l) => (l.operands.includes('[rip') ? commentHex(l.comment) : null),
        actual: (d) => d.ref,
      },
    },
  },
  {
    mode: 'x86',
    arch: 'i386',
    objdumpArch: 'i386',
    entries: () => [largest('i386', 'ELF', false)!].filter(Boolean),
    args: ['-M', 'intel'],
    checks: { 'branch targets': branchTarget(/^(jmp|j[a-z]+|call|loop\w*)$/) },
  },
];

for (const a of ARCHS) {
  test(`${a.mode}: direct targets and PC-relative addresses = objdump`, async (t) => {
    const objdump = objdumpFor(a.objdumpArch);
    const entries = a.entries();
    if (!objdump || entries.length === 0) return t.skip(objdump ? 'corpus absent' : `no objdump for ${a.objdumpArch}`);
    const decoder = await createDecoder(a.mode);
    const d = newDecoded();
    const tallies = Object.fromEntries(Object.keys(a.checks).map((k) => [k, { same: 0, n: 0, bad: [] as string[] }]));
    let textSame = 0;
    let textN = 0;
    for (const entry of entries) {
      const file = readCorpus(entry);
      const text = elfSections(file).find((s) => s.name === '.text')!;
      const bytes = file.subarray(text.offset, text.offset + text.size);
      // Our linear walk: where it decoded an instruction, and what.
      const ours = new Map<number, Decoded>();
      for (let off = 0; off < bytes.length;) {
        const ok = decoder.decode(bytes, off, text.vaddr + off, d);
        if (ok) ours.set(text.vaddr + off, { ...d });
        off += ok ? d.length : a.mode === 'thumb' ? 2 : a.mode.startsWith('x86') ? 1 : 4;
      }
      const lines = objdumpSection(objdump, path.join(CORPUS, entry.path), '.text', a.args, a.mode === 'thumb');
      for (const line of lines) {
        // armhf .text has a little ARM-state code (crt's call_weak_fn): objdump knows it from mapping
        // symbols and prints it as one 8-digit word; it is compared with the A32 decoder.
        const armState = a.mode === 'thumb' && /^[0-9a-f]{8}$/.test(line.raw);
        const mine = armState ? decodeArmAt(bytes, line.vaddr - text.vaddr, line.vaddr) : ours.get(line.vaddr);
        if (!mine || line.mnemonic.startsWith('.')) continue;
        for (const [name, check] of Object.entries(a.checks)) {
          const expected = check.expected(line);
          if (expected === null) continue;
          const tally = tallies[name]!;
          tally.n++;
          if (check.actual(mine) === expected) tally.same++;
          else if (tally.bad.length < 20) {
            tally.bad.push(
              `${entry.path} ${line.vaddr.toString(16)} ${line.mnemonic} ${line.operands}: ours ${check.actual(mine).toString(16)}`,
            );
          }
        }
        if (a.mode === 'mipsel') {
          // objdump prints branch targets as bare hex; ours carry 0x.
          textN++;
          const mine2 = decoder.text(bytes, line.vaddr - text.vaddr, line.vaddr);
          const isBranch = a.checks['branch targets']!.expected(line) !== null;
          const operands = isBranch ? line.operands.replace(/([0-9a-f]+)$/, '0x$1') : line.operands;
          if (`${mine2?.mnemonic} ${mine2?.operands}`.trim() === `${line.mnemonic} ${operands}`.trim()) textSame++;
          else if (textN - textSame < 5)
            t.diagnostic(`text differs: ${line.mnemonic} ${operands} / ${mine2?.mnemonic} ${mine2?.operands}`);
        }
      }
    }
    for (const [name, tally] of Object.entries(tallies)) {
      t.diagnostic(`${name}: ${tally.same}/${tally.n} equal`);
      for (const b of tally.bad) t.diagnostic(b);
    }
    for (const [name, tally] of Object.entries(tallies)) {
      assert.deepEqual(tally.bad, [], name);
      assert.ok(tally.n > 0, `${name}: objdump printed some`);
    }
    if (a.mode === 'mipsel') {
      t.diagnostic(`text: ${textSame}/${textN} equal to objdump's`);
      assert.equal(textSame, textN);
    }
  });
}
