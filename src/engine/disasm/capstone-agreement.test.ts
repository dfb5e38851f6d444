// The table-driven ARM decoders against Capstone's detail, on every instruction of the corpus: the .text
// of each aarch64 binary (and Debian's busybox), and the .text of each armhf binary in Thumb state (how
// it was compiled) and, as a stress test, in ARM state (mostly Thumb code read as A32, i.e. noise), plus
// the A32 .plt. The walk follows Capstone; where Capstone decodes, length, flow, target, targetThumb (of
// transfers), conditional, ref and refIsMemory must be equal. Where Capstone rejects the bytes the fast
// decoders may still decode them: newer instructions Capstone 5 lacks (AArch64 MOPS/MTE, UDF #0) and data.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeArm } from './arm-decoder.js';
import { decodeArm64 } from './arm64-decoder.js';
import { corpusEntries, elfSections, FLOW_NAMES, readCorpus } from '../../../test/helpers/engine/disasm.js';
import { createCapstoneDecoder } from './index.js';
import { Flow, newDecoded, type Decoded } from './instruction.js';
import { ThumbDecoder } from './thumb-decoder.js';

interface Tally {
  decoded: number;
  agree: number;
  capstoneRejects: number;
  bothReject: number;
  fastRejects: number;
  differ: string[];
}

const same = (a: Decoded, b: Decoded): boolean =>
  a.length === b.length &&
  a.flow === b.flow &&
  a.target === b.target &&
  a.conditional === b.conditional &&
  a.ref === b.ref &&
  a.refIsMemory === b.refIsMemory &&
  (a.flow === Flow.Sequential || a.targetThumb === b.targetThumb);

const show = (d: Decoded) =>
  `${FLOW_NAMES[d.flow]} len=${d.length} target=${d.target.toString(16)} cond=${d.conditional} ref=${d.ref.toString(16)}`;

async function compare(
  mode: 'arm' | 'thumb' | 'arm64',
  arch: string,
  sections: (name: string) => boolean,
  decode: (bytes: Uint8Array, offset: number, vaddr: number, out: Decoded) => boolean,
): Promise<Tally | null> {
  const entries = corpusEntries().filter((e) => e.arch === arch && e.format === 'ELF' && !e.stripped);
  entries.push(...corpusEntries().filter((e) => e.arch === arch && e.path.includes('busybox')));
  if (entries.length === 0) return null;
  const reference = await createCapstoneDecoder(mode);
  const t: Tally = { decoded: 0, agree: 0, capstoneRejects: 0, bothReject: 0, fastRejects: 0, differ: [] };
  const fast = newDecoded();
  for (const entry of entries) {
    const file = readCorpus(entry);
    for (const s of elfSections(file).filter((x) => x.exec && sections(x.name))) {
      const bytes = file.subarray(s.offset, s.offset + s.size);
      reference.decodeRange(bytes, 0, bytes.length, s.vaddr, (offset, ref) => {
        const ok = decode(bytes, offset, s.vaddr + offset, fast);
        if (ref.flow === Flow.Invalid) {
          t.capstoneRejects++;
          if (!ok) t.bothReject++;
          return;
        }
        t.decoded++;
        if (!ok) t.fastRejects++;
        else if (same(fast, ref)) t.agree++;
        else if (t.differ.length < 20) {
          const text = reference.text(bytes, offset, s.vaddr + offset);
          t.differ.push(
            `${entry.path} ${(s.vaddr + offset).toString(16)} ${text?.mnemonic} ${text?.operands}: ` +
              `fast ${show(fast)} / capstone ${show(ref)}`,
          );
        }
      });
    }
  }
  return t;
}

const report = (t: Tally) =>
  `${t.agree}/${t.decoded} instructions Capstone decodes agree; Capstone rejects ${t.capstoneRejects} ` +
  `(fast decoder rejects ${t.bothReject} of them too)`;

test('AArch64: table-driven decoder = Capstone on every corpus instruction', async (t) => {
  const tally = await compare('arm64', 'aarch64', (n) => n === '.text', decodeArm64);
  if (!tally) return t.skip('corpus absent');
  t.diagnostic(report(tally));
  assert.deepEqual(tally.differ, []);
  assert.equal(tally.fastRejects, 0);
  assert.ok(tally.decoded > 1_000_000, 'the whole aarch64 corpus was read');
});

test('Thumb-2: table-driven decoder = Capstone on every armhf .text instruction', async (t) => {
  const thumb = new ThumbDecoder(() => null);
  const tally = await compare(
    'thumb',
    'arm',
    (n) => n === '.text',
    (b, o, v, out) => thumb.decode(b, o, v, out),
  );
  if (!tally) return t.skip('corpus absent');
  t.diagnostic(report(tally));
  assert.deepEqual(tally.differ, []);
  assert.equal(tally.fastRejects, 0);
  assert.ok(tally.decoded > 200_000);
});

test('A32: table-driven decoder = Capstone on armhf .plt and on .text read as ARM', async (t) => {
  const tally = await compare('arm', 'arm', (n) => n === '.text' || n === '.plt', decodeArm);
  if (!tally) return t.skip('corpus absent');
  t.diagnostic(report(tally));
  assert.deepEqual(tally.differ, []);
  assert.equal(tally.fastRejects, 0);
});
