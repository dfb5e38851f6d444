import assert from 'node:assert/strict';
import { test } from 'node:test';
import { seededRandom } from '../../../shared/seeded-random.js';
import { assertSurvivesDamage } from '../../../../test/helpers/firmware/hostile.js';
import { toolOutput } from '../../../../test/helpers/firmware/tool-output.js';
import { missingTool, runTool } from '../../../../test/helpers/firmware/tools.js';
import { onlyFile, readContext } from '../../../../test/helpers/firmware/unpack.js';
import { noise } from '../../../../test/helpers/samples.js';
import { DecodeError, OutputLimitError } from '../compression/errors.js';
import { srecFormat } from './srec.js';

const skipObjcopy = missingTool('objcopy', 'binutils') ?? false;
const skipSrecCat = missingTool('srec_cat', 'srecord') ?? false;

const extract = (text: Uint8Array, offset = 0) => onlyFile(srecFormat, 'image.bin', text, offset);

/** One record with its checksum: `S<type><count><address><data><checksum>`. */
function record(type: number, address: number, data: number[]): string {
  const addressBytes = [2, 2, 3, 4, 0, 2, 3, 4, 3, 2][type]!;
  const a = Array.from({ length: addressBytes }, (_, i) => (address >>> (8 * (addressBytes - 1 - i))) & 0xff);
  const body = [addressBytes + data.length + 1, ...a, ...data];
  const sum = 0xff - (body.reduce((x, y) => x + y, 0) & 0xff);
  return `S${type}${[...body, sum].map((b) => b.toString(16).toUpperCase().padStart(2, '0')).join('')}\n`;
}

test('srec: objcopy output as S1, S2 and S3 records lays out its input', { skip: skipObjcopy }, () => {
  for (const [size, options] of [
    [3000, []],
    [70_000, []],
    [5000, ['--srec-forceS3', '--change-addresses', '0x08000000']],
    [5000, ['--srec-len', '64']],
  ] as const) {
    const data = noise(size, 1);
    const text = toolOutput([data], ([input], output) =>
      runTool('objcopy', ['-I', 'binary', '-O', 'srec', ...options, input!, output]),
    );
    const withJunk = Buffer.concat([Buffer.from('Some text\n'), text, Buffer.from('Sorry, trailing words\n')]);
    const r = extract(withJunk, 10);
    const label = `${size} ${options.join(' ')}`;
    assert.ok(r.data.equals(data), label);
    assert.equal(r.size, text.length, label);
    assert.deepEqual(r.problems, [], label);
  }
});

test(
  'srec: srec_cat output with a gap, a header, and a count record in place of a terminator',
  { skip: skipSrecCat },
  () => {
    const a = noise(3000, 2);
    const b = noise(2000, 3);
    const expected = Buffer.concat([a, new Uint8Array(0x8000 - 0x1000 - a.length).fill(0xff), b]);
    for (const extra of [[], ['-execution-start-address=0x1000'], ['-address-length=4']]) {
      const text = toolOutput([a, b], ([first, second], output) =>
        runTool('srec_cat', [
          ...[first!, '-binary', '-offset', '0x1000', second!, '-binary', '-offset', '0x8000'],
          ...['-o', output, '-Motorola', '-header', 'my module', ...extra],
        ]),
      );
      const crlf = Buffer.from(Buffer.from(text).toString('latin1').replace(/\n/g, '\r\n'), 'latin1');
      for (const t of [text, crlf]) {
        const r = extract(t);
        assert.ok(r.data.equals(expected), extra.join(' '));
        assert.equal(r.size, t.length, extra.join(' '));
        assert.deepEqual(r.problems, [], extra.join(' '));
        assert.match(r.description ?? '', /"my module"/);
      }
    }
  },
);

test('srec: the probe wants several valid records in a row', () => {
  const header = record(0, 0, [...Buffer.from('hdr')]);
  const data = record(1, 0x100, [1, 2, 3]);
  const end = record(9, 0, []);
  const no = (text: string) => assert.equal(srecFormat.probe(Buffer.from(text), 0, readContext()), null, text);
  no(data);
  no(header + end);
  no(`S1 is a model number\n${data}${end}`);
  no(data.replace('0100', '0200') + end);
  no(record(4, 0, [1]) + data + end);
  no(`${data.slice(0, -3)}${end}`);
  const r = extract(Buffer.from((header + data + end).toLowerCase().replace(/s/g, 'S')));
  assert.deepEqual([...r.data], [1, 2, 3]);
  // Without a terminator (or a count that agrees) the run still counts, and says what it lacks.
  const open = extract(Buffer.from(data + record(1, 0x103, [4]) + record(5, 3, []) + 'Some text'));
  assert.deepEqual([...open.data], [1, 2, 3, 4]);
  assert.equal(open.problems.length, 1);
  const counted = extract(Buffer.from(data + record(1, 0x103, [4]) + record(5, 2, [])));
  assert.deepEqual(counted.problems, []);
});

test('srec: layouts past 256 MiB or the budget are refused', () => {
  const wide = Buffer.from(record(3, 0, [1]) + record(3, 0x20000000, [2]) + record(7, 0, []));
  const probed = srecFormat.probe(wide, 0, readContext());
  assert.ok(probed);
  assert.throws(() => [...probed.entries(readContext())], DecodeError);
  const small = Buffer.from(record(1, 0, [1]) + record(1, 0x1000, [2]) + record(9, 0, []));
  assert.throws(
    () => [...srecFormat.probe(small, 0, readContext())!.entries(readContext(null, 100))],
    OutputLimitError,
  );
  assert.equal(extract(small).data.length, 0x1001);
});

test('srec: truncations and mutations end fast, only in DecodeError or OutputLimitError', { skip: skipObjcopy }, () => {
  const text = toolOutput([noise(4000, 4)], ([input], output) =>
    runTool('objcopy', ['-I', 'binary', '-O', 'srec', '--srec-forceS3', input!, output]),
  );
  const alphabet = Buffer.from('0123456789ABCDEFS\n');
  assertSurvivesDamage(srecFormat, text, { random: seededRandom(5), cases: 300, alphabet, budget: () => 1 << 20 });
});
