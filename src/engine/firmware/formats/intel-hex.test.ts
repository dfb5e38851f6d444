import assert from 'node:assert/strict';
import { test } from 'node:test';
import { seededRandom } from '../../../shared/seeded-random.js';
import { assertSurvivesDamage } from '../../../../test/helpers/firmware/hostile.js';
import { toolOutput } from '../../../../test/helpers/firmware/tool-output.js';
import { missingTool, runTool } from '../../../../test/helpers/firmware/tools.js';
import { onlyFile, readContext } from '../../../../test/helpers/firmware/unpack.js';
import { noise } from '../../../../test/helpers/samples.js';
import { DecodeError, OutputLimitError } from '../compression/errors.js';
import { intelHexFormat } from './intel-hex.js';

const skipObjcopy = missingTool('objcopy', 'binutils') ?? false;
const skipSrecCat = missingTool('srec_cat', 'srecord') ?? false;

const extract = (text: Uint8Array, offset = 0) => onlyFile(intelHexFormat, 'image.bin', text, offset);

/** One record with its checksum: `:LLAAAATT…CC`. */
function record(type: number, address: number, data: number[]): string {
  const body = [data.length, address >> 8, address & 0xff, type, ...data];
  const sum = (0x100 - (body.reduce((a, b) => a + b, 0) & 0xff)) & 0xff;
  return `:${[...body, sum].map((b) => b.toString(16).toUpperCase().padStart(2, '0')).join('')}\n`;
}

test('intel hex: objcopy output at linear and segment addresses lays out its input', { skip: skipObjcopy }, () => {
  const data = noise(70_000, 1);
  for (const base of ['0', '0x1fff0', '0x101fff0', '0x08000000']) {
    const hex = toolOutput([data], ([input], output) =>
      runTool('objcopy', ['-I', 'binary', '-O', 'ihex', '--change-addresses', base, input!, output]),
    );
    const withJunk = Buffer.concat([Buffer.from('junk: not hex\n'), hex, Buffer.from('# trailing text\n')]);
    const r = extract(withJunk, 14);
    assert.ok(r.data.equals(data), base);
    assert.equal(r.size, hex.length, base);
    assert.match(r.description ?? '', new RegExp(`at 0x${Number(base).toString(16)}–`));
    assert.deepEqual(r.problems, []);
  }
});

test('intel hex: srec_cat output with a gap, a start address and CR LF line ends', { skip: skipSrecCat }, () => {
  const a = noise(3000, 2);
  const b = noise(2000, 3);
  const hex = toolOutput([a, b], ([first, second], output) =>
    runTool('srec_cat', [
      first!,
      '-binary',
      '-offset',
      '0x1000',
      second!,
      '-binary',
      '-offset',
      '0x8000',
      '-o',
      output,
      '-Intel',
      '-execution-start-address=0x1004',
    ]),
  );
  const crlf = Buffer.from(Buffer.from(hex).toString('latin1').replace(/\n/g, '\r\n'), 'latin1');
  const expected = Buffer.concat([a, new Uint8Array(0x8000 - 0x1000 - a.length).fill(0xff), b]);
  for (const text of [hex, crlf]) {
    const r = extract(text);
    assert.ok(r.data.equals(expected));
    assert.equal(r.size, text.length);
  }
});

test('intel hex: the probe wants several valid records in a row', () => {
  const data = record(0, 0x100, [1, 2, 3]);
  const end = record(1, 0, []);
  const no = (text: string) => assert.equal(intelHexFormat.probe(Buffer.from(text), 0, readContext()), null, text);
  no(end);
  no(data);
  no(`:hello world\n${data}${end}`);
  no(data.replace('01', '02') + end);
  no(`:10${data.slice(3)}${end}`);
  no(record(6, 0, [1, 2]) + data + end);
  no(record(4, 0, [1]) + data + end);
  no(':8080/\n');
  const r = extract(Buffer.from((data + end).toLowerCase()));
  assert.deepEqual([...r.data], [1, 2, 3]);
  // Without an end-of-file record the run still counts, and says what it lacks.
  const open = extract(Buffer.from(data + record(0, 0x103, [4]) + 'not a record'));
  assert.deepEqual([...open.data], [1, 2, 3, 4]);
  assert.equal(open.problems.length, 1);
  assert.equal(open.size, (data + record(0, 0x103, [4])).length);
});

test('intel hex: layouts past 256 MiB or the budget are refused', () => {
  const text = Buffer.from(record(0, 0, [1]) + record(4, 0, [0x20, 0x00]) + record(0, 0, [2]) + record(1, 0, []));
  const probed = intelHexFormat.probe(text, 0, readContext());
  assert.ok(probed);
  assert.throws(() => [...probed.entries(readContext())], DecodeError);
  const small = Buffer.from(record(0, 0, [1]) + record(0, 0x1000, [2]) + record(1, 0, []));
  assert.throws(
    () => [...intelHexFormat.probe(small, 0, readContext())!.entries(readContext(null, 100))],
    OutputLimitError,
  );
  assert.equal(extract(small).data.length, 0x1001);
});

test(
  'intel hex: truncations and mutations end fast, only in DecodeError or OutputLimitError',
  { skip: skipObjcopy },
  () => {
    const hex = toolOutput([noise(4000, 4)], ([input], output) =>
      runTool('objcopy', ['-I', 'binary', '-O', 'ihex', '--change-addresses', '0x1fff0', input!, output]),
    );
    const alphabet = Buffer.from('0123456789ABCDEF:\n');
    assertSurvivesDamage(intelHexFormat, hex, { random: seededRandom(5), cases: 300, alphabet, budget: () => 1 << 20 });
  },
);
