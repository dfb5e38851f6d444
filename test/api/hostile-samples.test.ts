// Malformed binaries through the whole service: each analysis ends (Complete with warnings, or Error with
// a log line), never hangs or takes the worker down, and a well-formed sample queued among them completes.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sampleProgram } from '../helpers/engine/sample-program.js';
import { backends } from '../helpers/backends.js';
import { useHarness } from '../helpers/harness.js';

const program = Buffer.from(sampleProgram({ bits: 64, little: true, machine: 62 }));
const patched = (edit: (v: DataView) => void) => {
  const b = Buffer.from(program);
  edit(new DataView(b.buffer, b.byteOffset, b.length));
  return b;
};

const hostile: [string, Buffer][] = [
  ['the ELF header alone', program.subarray(0, 64)],
  ['section headers past the end of the file', patched((v) => v.setBigUint64(0x28, 1n << 40n, true))],
  ['65535 program headers', patched((v) => v.setUint16(0x38, 0xffff, true))],
  ['section names table index out of range', patched((v) => v.setUint16(0x3e, 0xfff0, true))],
  [
    'every byte after the header inverted',
    Buffer.concat([program.subarray(0, 64), program.subarray(64).map((x) => ~x & 0xff)]),
  ],
];

for (const backend of backends) {
  describe(`hostile samples through the API (${backend.name})`, { skip: backend.skip ?? false }, () => {
    const h = useHarness(backend);

    test('each ends with a log line saying what went wrong; the good one in their midst completes', async () => {
      const alice = h().keys.alice;
      const ids: [string, number][] = [];
      for (const [name, bytes] of hostile.slice(0, 3)) ids.push([name, await h().analysis(alice, bytes)]);
      const good = await h().analysis(alice, program);
      for (const [name, bytes] of hostile.slice(3)) ids.push([name, await h().analysis(alice, bytes)]);

      assert.equal(await h().waitForStatus(alice, good), 'Complete');
      const fns = (await h().request('GET', `/v2/analyses/${good}/functions`, alice)).json().data.functions;
      assert.ok(fns.length >= 5, 'the good sample is analysed in full');
      for (const [name, id] of ids) {
        const status = await h().waitForStatus(alice, id);
        const logs = (await h().request('GET', `/v2/analyses/${id}/logs`, alice)).json().data.logs as string;
        assert.ok(status === 'Complete' || status === 'Error', `${name}: ${status}`);
        assert.match(logs, status === 'Error' ? /Error: \S/ : /Warning: \S/, `${name}:\n${logs}`);
      }
    });
  });
}
