// The firmware oracle itself: a zero-finding run means something only if a reader's stray exception, a
// chunk past its data and a reader that claims too much each come out as faults, and valid images as none.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DecodeError } from '../../src/engine/firmware/compression/errors.js';
import type { FirmwareFormat, Entry } from '../../src/engine/firmware/format.js';
import { handBuiltImages } from './firmware-hand-images.js';
import { firmwareFaults } from './firmware-target.js';

const MAGIC = [...Buffer.from('FUZZ')];

/** A stand-in reader at every "FUZZ": `size` bytes of chunk, its entries from `entries`. */
const reader = (name: string, size: (rest: number) => number, entries: () => Iterable<Entry>): FirmwareFormat => ({
  name,
  magics: [{ bytes: MAGIC }],
  probe: (data, offset) => ({ size: size(data.length - offset), entries }),
});

const image = Buffer.concat([Buffer.alloc(100), Buffer.from('FUZZ'), Buffer.alloc(200, 0x41)]);

test('firmware oracle: valid images have no fault', () => {
  for (const { name, bytes } of handBuiltImages()) assert.deepEqual(firmwareFaults(bytes, 1), [], name);
});

test('firmware oracle: a stray exception in a probe is a fault naming the reader and where it was thrown', () => {
  const boom: FirmwareFormat = {
    name: 'boom',
    magics: [{ bytes: MAGIC }],
    probe: () => {
      throw new TypeError('kaboom at 12');
    },
  };
  const faults = firmwareFaults(image, 0, [boom]);
  assert.match(
    faults[0]!,
    /^internal error in the boom reader at Object.probe \(tools\/fuzz\/firmware-target\.test\.js:\d+\): TypeError: kaboom at 12$/,
  );
  assert.match(faults.join('\n'), /in image\nTypeError: kaboom at 12\n +at Object.probe/);
});

test('firmware oracle: a stray exception while listing entries is a fault; a DecodeError is not', () => {
  const entries = (err: Error) =>
    function* (): Generator<Entry> {
      yield { path: 'a', kind: 'file', data: new Uint8Array(4) };
      throw err;
    };
  const faults = firmwareFaults(image, 0, [reader('lister', (rest) => rest, entries(new RangeError('index 9')))]);
  assert.match(faults[0]!, /^internal error in the lister reader at .*: RangeError: index 9$/);
  assert.deepEqual(firmwareFaults(image, 0, [reader('lister', (rest) => rest, entries(new DecodeError('bad')))]), []);
});

test('firmware oracle: a chunk past the end of its data, and an escaping name written, are faults', () => {
  const faults = firmwareFaults(image, 0, [
    reader(
      'greedy',
      (rest) => rest + 1,
      () => [],
    ),
  ]);
  assert.equal(faults[0], 'greedy chunk extent past the end of its data');
  // The sink refuses the climbing name (a problem, not a fault): the oracle checks the sink, not the reader.
  const climber = reader(
    'climber',
    (rest) => rest,
    () => [{ path: '../../etc/passwd', kind: 'file', data: image }],
  );
  assert.deepEqual(firmwareFaults(image, 0, [climber]), []);
});
