import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { inTempDir, missingTool, runTool } from '../../../../test/helpers/firmware/tools.js';
import { DecodeError, OutputLimitError } from '../compression/errors.js';
import type { ReadContext } from '../format.js';
import { intelHexFormat } from './intel-hex.js';

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

/** What a tool makes of binary files: `tool(dir, inputNames, outputName)` runs it. */
function convert(files: Uint8Array[], run: (dir: string, inputs: string[], output: string) => void): Uint8Array {
  return inTempDir((dir) => {
    const inputs = files.map((f, i) => {
      writeFileSync(join(dir, `in${i}`), f);
      return join(dir, `in${i}`);
    });
    run(dir, inputs, join(dir, 'out'));
    return new Uint8Array(readFileSync(join(dir, 'out')));
  });
}

function extract(text: Uint8Array, offset = 0, ctx = context()) {
  const probed = intelHexFormat.probe(text, offset, ctx);
  assert.ok(probed);
  const entries = [...probed.entries(ctx)];
  assert.deepEqual(
    entries.map((e) => [e.path, e.kind]),
    [['image.bin', 'file']],
  );
  return { size: probed.size, data: Buffer.from(entries[0]!.data!), description: probed.description, ctx };
}

/** One record with its checksum: `:LLAAAATT…CC`. */
function record(type: number, address: number, data: number[]): string {
  const body = [data.length, address >> 8, address & 0xff, type, ...data];
  const sum = (0x100 - (body.reduce((a, b) => a + b, 0) & 0xff)) & 0xff;
  return `:${[...body, sum].map((b) => b.toString(16).toUpperCase().padStart(2, '0')).join('')}\n`;
}

test('intel hex: objcopy output at linear and segment addresses lays out its input', { skip: skipObjcopy }, () => {
  const data = bytes(70_000, 1);
  for (const base of ['0', '0x1fff0', '0x101fff0', '0x08000000']) {
    const hex = convert([data], (_, [input], output) =>
      runTool('objcopy', ['-I', 'binary', '-O', 'ihex', '--change-addresses', base, input!, output]),
    );
    const withJunk = Buffer.concat([Buffer.from('junk: not hex\n'), hex, Buffer.from('# trailing text\n')]);
    const r = extract(withJunk, 14);
    assert.ok(r.data.equals(data), base);
    assert.equal(r.size, hex.length, base);
    assert.match(r.description ?? '', new RegExp(`at 0x${Number(base).toString(16)}–`));
    assert.deepEqual(r.ctx.problems, []);
  }
});

test('intel hex: srec_cat output with a gap, a start address and CR LF line ends', { skip: skipSrecCat }, () => {
  const a = bytes(3000, 2);
  const b = bytes(2000, 3);
  const hex = convert([a, b], (_, [first, second], output) =>
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
  const no = (text: string) => assert.equal(intelHexFormat.probe(Buffer.from(text), 0, context()), null, text);
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
  assert.equal(open.ctx.problems.length, 1);
  assert.equal(open.size, (data + record(0, 0x103, [4])).length);
});

test('intel hex: layouts past 256 MiB or the budget are refused', () => {
  const text = Buffer.from(record(0, 0, [1]) + record(4, 0, [0x20, 0x00]) + record(0, 0, [2]) + record(1, 0, []));
  const probed = intelHexFormat.probe(text, 0, context());
  assert.ok(probed);
  assert.throws(() => [...probed.entries(context())], DecodeError);
  const small = Buffer.from(record(0, 0, [1]) + record(0, 0x1000, [2]) + record(1, 0, []));
  assert.throws(() => [...intelHexFormat.probe(small, 0, context())!.entries(context(100))], OutputLimitError);
  assert.equal(extract(small).data.length, 0x1001);
});

test(
  'intel hex: truncations and mutations end fast, only in DecodeError or OutputLimitError',
  { skip: skipObjcopy },
  () => {
    const hex = convert([bytes(4000, 4)], (_, [input], output) =>
      runTool('objcopy', ['-I', 'binary', '-O', 'ihex', '--change-addresses', '0x1fff0', input!, output]),
    );
    const next = random(5);
    const hexDigits = Buffer.from('0123456789ABCDEF:\n');
    for (let i = 0; i < 300; i++) {
      const bad = i < 100 ? hex.subarray(0, Math.floor(next() * hex.length)) : hex.slice();
      if (i >= 100)
        for (let k = 1 + Math.floor(next() * 4); k > 0; k--)
          bad[Math.floor(next() * bad.length)] = hexDigits[Math.floor(next() * hexDigits.length)]!;
      const started = performance.now();
      try {
        const ctx = context(1 << 20);
        const probed = intelHexFormat.probe(bad, 0, ctx);
        if (probed) {
          assert.ok(probed.size <= bad.length);
          for (const e of probed.entries(ctx)) assert.ok(e.data);
        }
      } catch (err) {
        if (!(err instanceof DecodeError || err instanceof OutputLimitError)) throw err;
      }
      assert.ok(performance.now() - started < 1000);
    }
  },
);
