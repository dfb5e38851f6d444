import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { inTempDir, missingTool, runTool } from '../../../../test/helpers/firmware/tools.js';
import { DecodeError, OutputLimitError } from '../compression/errors.js';
import type { ReadContext } from '../format.js';
import { srecFormat } from './srec.js';

const skipObjcopy = missingTool('objcopy', 'binutils') ?? false;
const skipSrecCat = missingTool('srec_cat', 'srecord') ?? false;

function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

const bytes = (length: number, seed: number) => {
  const next = random(seed);
  return Uint8Array.from({ length }, () => Math.floor(next() * 256));
};

function context(remaining = 1 << 30): ReadContext & { problems: string[] } {
  const problems: string[] = [];
  return { remaining: () => remaining, password: null, problem: (m) => problems.push(m), problems };
}

/** What a tool makes of binary files: `run(inputPaths, outputPath)` runs it. */
function convert(files: Uint8Array[], run: (inputs: string[], output: string) => void): Uint8Array {
  return inTempDir((dir) => {
    const inputs = files.map((f, i) => {
      writeFileSync(join(dir, `in${i}`), f);
      return join(dir, `in${i}`);
    });
    run(inputs, join(dir, 'out'));
    return new Uint8Array(readFileSync(join(dir, 'out')));
  });
}

function extract(text: Uint8Array, offset = 0, ctx = context()) {
  const probed = srecFormat.probe(text, offset, ctx);
  assert.ok(probed);
  const entries = [...probed.entries(ctx)];
  assert.deepEqual(
    entries.map((e) => [e.path, e.kind]),
    [['image.bin', 'file']],
  );
  return { size: probed.size, data: Buffer.from(entries[0]!.data!), description: probed.description, ctx };
}

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
    const data = bytes(size, 1);
    const text = convert([data], ([input], output) =>
      runTool('objcopy', ['-I', 'binary', '-O', 'srec', ...options, input!, output]),
    );
    const withJunk = Buffer.concat([Buffer.from('Some text\n'), text, Buffer.from('Sorry, trailing words\n')]);
    const r = extract(withJunk, 10);
    const label = `${size} ${options.join(' ')}`;
    assert.ok(r.data.equals(data), label);
    assert.equal(r.size, text.length, label);
    assert.deepEqual(r.ctx.problems, [], label);
  }
});

test(
  'srec: srec_cat output with a gap, a header, and a count record in place of a terminator',
  { skip: skipSrecCat },
  () => {
    const a = bytes(3000, 2);
    const b = bytes(2000, 3);
    const expected = Buffer.concat([a, new Uint8Array(0x8000 - 0x1000 - a.length).fill(0xff), b]);
    for (const extra of [[], ['-execution-start-address=0x1000'], ['-address-length=4']]) {
      const text = convert([a, b], ([first, second], output) =>
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
        assert.deepEqual(r.ctx.problems, [], extra.join(' '));
        assert.match(r.description ?? '', /"my module"/);
      }
    }
  },
);

test('srec: the probe wants several valid records in a row', () => {
  const header = record(0, 0, [...Buffer.from('hdr')]);
  const data = record(1, 0x100, [1, 2, 3]);
  const end = record(9, 0, []);
  const no = (text: string) => assert.equal(srecFormat.probe(Buffer.from(text), 0, context()), null, text);
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
  assert.equal(open.ctx.problems.length, 1);
  const counted = extract(Buffer.from(data + record(1, 0x103, [4]) + record(5, 2, [])));
  assert.deepEqual(counted.ctx.problems, []);
});

test('srec: layouts past 256 MiB or the budget are refused', () => {
  const wide = Buffer.from(record(3, 0, [1]) + record(3, 0x20000000, [2]) + record(7, 0, []));
  const probed = srecFormat.probe(wide, 0, context());
  assert.ok(probed);
  assert.throws(() => [...probed.entries(context())], DecodeError);
  const small = Buffer.from(record(1, 0, [1]) + record(1, 0x1000, [2]) + record(9, 0, []));
  assert.throws(() => [...srecFormat.probe(small, 0, context())!.entries(context(100))], OutputLimitError);
  assert.equal(extract(small).data.length, 0x1001);
});

test('srec: truncations and mutations end fast, only in DecodeError or OutputLimitError', { skip: skipObjcopy }, () => {
  const text = convert([bytes(4000, 4)], ([input], output) =>
    runTool('objcopy', ['-I', 'binary', '-O', 'srec', '--srec-forceS3', input!, output]),
  );
  const next = random(5);
  const alphabet = Buffer.from('0123456789ABCDEFS\n');
  for (let i = 0; i < 300; i++) {
    const bad = i < 100 ? text.subarray(0, Math.floor(next() * text.length)) : text.slice();
    if (i >= 100)
      for (let k = 1 + Math.floor(next() * 4); k > 0; k--)
        bad[Math.floor(next() * bad.length)] = alphabet[Math.floor(next() * alphabet.length)]!;
    const started = performance.now();
    try {
      const ctx = context(1 << 20);
      const probed = srecFormat.probe(bad, 0, ctx);
      if (probed) {
        assert.ok(probed.size <= bad.length);
        for (const e of probed.entries(ctx)) assert.ok(e.data);
      }
    } catch (err) {
      if (!(err instanceof DecodeError || err instanceof OutputLimitError)) throw err;
    }
    assert.ok(performance.now() - started < 1000);
  }
});
