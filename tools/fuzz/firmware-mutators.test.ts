// Firmware mutations: reproducible from the random stream, bounded in growth, and the checksum repair makes
// a damaged uImage, TRX or JFFS2 image pass its reader's checks again (else its damage never gets inside).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { jffs2Format } from '../../src/engine/firmware/formats/jffs2/index.js';
import { trxFormat } from '../../src/engine/firmware/formats/trx.js';
import { uimageFormat } from '../../src/engine/firmware/formats/uimage.js';
import { seededRandom } from '../../src/shared/seeded-random.js';
import { entriesOf, readContext } from '../../test/helpers/firmware/unpack.js';
import { inTempDir, missingTool, runTool } from '../../test/helpers/firmware/tools.js';
import { mapFields } from './field-map.js';
import { handBuiltImages } from './firmware-hand-images.js';
import { mutateImage, repairChecksums } from './firmware-mutators.js';

const NO_MAP = mapFields(new Uint8Array(0));
const seed = (name: string) => new Uint8Array(handBuiltImages().find((s) => s.name === name)!.bytes);

test('firmware mutants: the same stream gives the same mutant, growth is bounded', () => {
  const tar = seed('hand-tar');
  assert.deepEqual(mutateImage(tar, NO_MAP, seededRandom(3)), mutateImage(tar, NO_MAP, seededRandom(3)));
  const lengths = Array.from({ length: 500 }, (_, i) => mutateImage(tar, NO_MAP, seededRandom(i)).bytes.length);
  assert.ok(Math.max(...lengths) <= tar.length + 3 * 8192, String(Math.max(...lengths)));
  assert.ok(new Set(lengths).size > 50, 'lengths vary');
});

test('firmware mutants: repaired uImage and TRX checksums let the damage in', () => {
  for (const [name, format, at] of [
    ['hand-uimage-gzip', uimageFormat, 40],
    ['hand-trx', trxFormat, 300],
  ] as const) {
    const bytes = seed(name);
    bytes[at]! ^= 0x20;
    assert.equal(format.probe(bytes, 0, readContext()), null, name);
    assert.ok(repairChecksums(bytes) > 0, name);
    assert.ok(format.probe(bytes, 0, readContext()), name);
    assert.equal(repairChecksums(bytes), 0, name);
  }
});

test('firmware mutants: repaired JFFS2 node CRCs, both byte orders', (t) => {
  const missing = missingTool('mkfs.jffs2', 'mtd-utils');
  if (missing) return t.skip(missing);
  for (const little of [true, false])
    inTempDir((dir) => {
      mkdirSync(join(dir, 'src'));
      writeFileSync(join(dir, 'src', 'config'), 'option hostname router\n'.repeat(50));
      runTool('mkfs.jffs2', ['-r', join(dir, 'src'), '-o', join(dir, 'fs'), little ? '-l' : '-b']);
      const bytes = new Uint8Array(readFileSync(join(dir, 'fs')));
      const clean = entriesOf(jffs2Format, bytes)!.files;
      assert.equal(clean.get('config')?.length, 1150);
      // Every node's header CRC goes stale, and an inode's node and data CRCs too.
      const v = new DataView(bytes.buffer);
      for (let at = 0; at + 12 <= bytes.length; at += 4) {
        if (v.getUint16(at, little) !== 0x1985) continue;
        const type = v.getUint16(at + 2, little);
        bytes[at + 8]! ^= 1;
        if (type === 0xe002) for (const crc of [60, 64]) bytes[at + crc]! ^= 1;
      }
      assert.notDeepEqual(entriesOf(jffs2Format, bytes)?.files, clean);
      assert.ok(repairChecksums(bytes) > 0);
      assert.deepEqual(entriesOf(jffs2Format, bytes)?.files, clean);
    });
});
