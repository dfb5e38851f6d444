import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { executablesIn, offsetMisses, score } from './firmware-score.js';

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

/** An ELF-looking file and a PE-looking file (only their headers matter to the scoring). */
const elf = Uint8Array.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, ...Array<number>(200).fill(7)]);
const pe = new Uint8Array(0x100);
pe.set([0x4d, 0x5a]);
new DataView(pe.buffer).setUint32(0x3c, 0x80, true);
pe.set([0x50, 0x45, 0, 0], 0x80);

test('copies count once, other executables are false positives, links and non-executables are not looked at', () => {
  const root = mkdtempSync(join(tmpdir(), 'binlens-firmware-score-'));
  try {
    mkdirSync(join(root, 'a', 'b'), { recursive: true });
    writeFileSync(join(root, 'a', 'elf'), elf);
    writeFileSync(join(root, 'a', 'b', 'elf-carved-copy'), elf);
    writeFileSync(join(root, 'a', 'b', 'elf-truncated'), elf.subarray(0, 100));
    writeFileSync(join(root, 'pe.exe'), pe);
    writeFileSync(join(root, 'mz-only'), Uint8Array.from([0x4d, 0x5a, ...Array<number>(100).fill(0)]));
    writeFileSync(join(root, 'text'), 'hello\n');
    symlinkSync('a/elf', join(root, 'link'));
    const found = executablesIn(root);
    assert.deepEqual([...found.values()].map((paths) => paths.sort()).sort(), [
      ['a/b/elf-carved-copy', 'a/elf'],
      ['a/b/elf-truncated'],
      ['pe.exe'],
    ]);
    const s = score(found, [
      { label: 'elf', sha256: sha(elf) },
      { label: 'pe', sha256: sha(pe) },
      { label: 'absent', sha256: sha(Uint8Array.of(1)) },
    ]);
    assert.equal(s.hits, 2);
    assert.equal(s.recall, 2 / 3);
    assert.equal(s.precision, 2 / 3);
    assert.deepEqual(s.missed, ['absent']);
    assert.deepEqual(s.extra, ['a/b/elf-truncated']);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('nothing found leaves precision undefined', () => {
  assert.equal(score(new Map(), [{ label: 'x', sha256: 'ab' }]).precision, null);
});

test('an offset matches only exactly', () => {
  const parts = [
    { offset: 0, label: 'a' },
    { offset: 0x10000, label: 'b' },
  ];
  assert.deepEqual(offsetMisses(parts, [{ offset: 0 }, { offset: 0x10001 }]), [{ offset: 0x10000, label: 'b' }]);
});
