import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { CORPUS } from '../../../../test/helpers/engine/disasm.js';
import { parseBinary } from '../../formats/parse.js';
import { libraryPrototypes } from './index.js';

const BIN = path.join(CORPUS, 'bin');
// Imported data, not functions (stdio streams, msvcrt's start-up variables), and zstd's weak tracing hooks.
const NOT_FUNCTIONS = new Set([
  'stderr',
  'stdout',
  'stdin',
  '_iob',
  '_fmode',
  '_commode',
  '_acmdln',
  '__initenv',
  '__mb_cur_max',
  'ZSTD_trace_compress_begin',
  'ZSTD_trace_compress_end',
  'ZSTD_trace_decompress_begin',
  'ZSTD_trace_decompress_end',
]);

test('every function the corpus binaries import has a known prototype', (t) => {
  if (!existsSync(BIN)) return t.skip('../shared/corpus is not present');
  const missing = new Set<string>();
  let imports = 0;
  for (const dir of readdirSync(BIN))
    for (const file of readdirSync(path.join(BIN, dir))) {
      if (file.includes('stripped')) continue;
      const image = parseBinary(readFileSync(path.join(BIN, dir, file)));
      const { format, bits } = image.identity;
      const db =
        format === 'pe'
          ? libraryPrototypes('windows', bits === 64 ? 'LLP64' : 'ILP32')
          : libraryPrototypes('linux', bits === 64 ? 'LP64' : 'ILP32');
      for (const i of image.imports) {
        imports++;
        if (!db.find(i.name) && !NOT_FUNCTIONS.has(i.name)) missing.add(`${file}: ${i.name}`);
      }
    }
  assert.ok(imports > 1000, `${imports} imports read`);
  assert.deepEqual([...missing], []);
});
