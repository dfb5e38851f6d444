// Capstone's cs_insn/cs_detail are read straight from WebAssembly memory at fixed offsets
// (capstone-runtime.ts, capstone-decoder.ts); these rows pin those offsets on known instructions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { differences, le16, le32 } from '../../../test/helpers/engine/disasm.js';
import { createCapstoneDecoder } from './index.js';
import { Flow, newDecoded, type Decoded } from './instruction.js';

const AT = 0x10000;

// [mode, assembly, bytes, expected fields]
const CASES: ['arm' | 'thumb' | 'arm64', string, Uint8Array, Partial<Decoded>][] = [
  ['arm64', 'bl #0x11000', le32(0x94000400), { length: 4, flow: Flow.Call, target: 0x11000 }],
  ['arm64', 'b.ne #0x10008', le32(0x54000041), { flow: Flow.Branch, target: 0x10008, conditional: true }],
  ['arm64', 'tbz w1, #3, #0x10008', le32(0x36180041), { flow: Flow.Branch, target: 0x10008 }],
  ['arm64', 'ret', le32(0xd65f03c0), { flow: Flow.Return }],
  ['arm64', 'ldr x0, #0x10008', le32(0x58000040), { ref: 0x10008, refIsMemory: true }],
  ['arm64', 'adr x0, #0x10008', le32(0x10000040), { ref: 0x10008, refIsMemory: false }],
  ['thumb', 'bl', le16(0xf000, 0xf800), { length: 4, flow: Flow.Call, target: AT + 4, targetThumb: true }],
  ['thumb', 'pop {r4, pc}', le16(0xbd10), { length: 2, flow: Flow.Return }],
  ['thumb', 'ldr r3, [pc, #8]', le16(0x4b02), { ref: AT + 12, refIsMemory: true }],
  ['thumb', 'tbb [pc, r3]', le16(0xe8df, 0xf003), { flow: Flow.IndirectJump, ref: AT + 4 }],
  ['thumb', 'ldr.w pc, [sp], #4', le16(0xf85d, 0xfb04), { flow: Flow.Return }],
  ['arm', 'bxeq lr', le32(0x012fff1e), { flow: Flow.Return, conditional: true }],
  ['arm', 'blx #+8 (to Thumb)', le32(0xfa000000), { flow: Flow.Call, target: AT + 8, targetThumb: true }],
  ['arm', 'add ip, pc, #0, #12', le32(0xe28fc600), { ref: AT + 8 }],
];

test('CapstoneDecoder: detail offsets on known instructions', async () => {
  const failures: string[] = [];
  const d = newDecoded();
  for (const [mode, name, bytes, expected] of CASES) {
    const dec = await createCapstoneDecoder(mode);
    assert.ok(dec.decode(bytes, 0, AT, d), `${mode} ${name} decodes`);
    const diff = differences(d, expected);
    if (diff) failures.push(`${mode} ${name}: ${diff}`);
  }
  assert.deepEqual(failures, []);
});

test('CapstoneDecoder.decodeRange: IT state within a batch, invalid bytes skipped', async () => {
  const dec = await createCapstoneDecoder('thumb');
  // it eq; bxeq lr; bx lr; <invalid 0xffff 0xffff>, then 0xffff cut by the end
  const bytes = le16(0xbf08, 0x4770, 0x4770, 0xffff, 0xffff);
  const seen: [number, Flow, boolean][] = [];
  dec.decodeRange(bytes, 0, bytes.length, AT, (offset, d) => seen.push([offset, d.flow, d.conditional]));
  assert.deepEqual(seen, [
    [0, Flow.Sequential, false],
    [2, Flow.Return, true],
    [4, Flow.Return, false],
    [6, Flow.Invalid, false],
    [8, Flow.Invalid, false],
  ]);
});

test('CapstoneDecoder: text', async () => {
  const arm64 = await createCapstoneDecoder('arm64');
  assert.deepEqual(arm64.text(le32(0x94000400), 0, AT), { mnemonic: 'bl', operands: '#0x11000' });
  const thumb = await createCapstoneDecoder('thumb');
  assert.deepEqual(thumb.text(le16(0xee37, 0x7b05), 0, AT), { mnemonic: 'vadd.f64', operands: 'd7, d7, d5' });
  assert.equal(thumb.text(le16(0xffff, 0xffff), 0, AT), null);
});
