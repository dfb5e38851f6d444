import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hexBytes, le16, le32 } from '../../../test/helpers/engine/disasm.js';
import { DecoderError, createDecoder } from './index.js';
import { Flow, newDecoded, type DecoderMode } from './instruction.js';

// [mode, bytes of a return or call, expected flow, expected text]
const CASES: [DecoderMode, Uint8Array, Flow, string][] = [
  ['x86', hexBytes('c3'), Flow.Return, 'ret'],
  ['x86_64', hexBytes('e8fbffffff'), Flow.Call, 'call 0x1000'],
  ['arm', le32(0xe12fff1e), Flow.Return, 'bx lr'],
  ['thumb', le16(0xbd10), Flow.Return, 'pop {r4, pc}'],
  ['arm64', le32(0xd65f03c0), Flow.Return, 'ret'],
  ['mips', hexBytes('03e00008'), Flow.Return, 'jr ra'],
  ['mipsel', hexBytes('0800e003'), Flow.Return, 'jr ra'],
];

test('createDecoder: every mode decodes and prints', async () => {
  const d = newDecoded();
  for (const [mode, bytes, flow, text] of CASES) {
    const dec = await createDecoder(mode);
    assert.equal(dec.mode, mode);
    assert.ok(dec.decode(bytes, 0, 0x1000, d), mode);
    assert.equal(d.flow, flow, mode);
    const t = dec.text(bytes, 0, 0x1000);
    assert.equal(`${t?.mnemonic} ${t?.operands}`.trim(), text, mode);
  }
});

test('createDecoder: the x86 decoders are shared per mode (their WebAssembly buffers are)', async () => {
  assert.equal(await createDecoder('x86_64'), await createDecoder('x86_64'));
  assert.notEqual(await createDecoder('x86'), await createDecoder('x86_64'));
  assert.notEqual(await createDecoder('thumb'), await createDecoder('thumb'), 'Thumb IT state is per decoder');
});

test('createDecoder: an unknown mode is a permanent DecoderError', async () => {
  await assert.rejects(createDecoder('sparc' as DecoderMode), (e: unknown) => {
    assert.ok(e instanceof DecoderError);
    assert.equal(e.reason, 'unsupported-mode');
    assert.equal(e.permanent, true);
    return true;
  });
});
