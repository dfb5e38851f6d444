// The host's sysroot serves library files only: under the CPU's library directories, wherever a link
// points, regular files — never the rest of the machine.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crossSysroot, hostSysroot } from './sysroot.js';

test('sysroot: library files are served, nothing else', (t) => {
  if (!existsSync('/lib64/ld-linux-x86-64.so.2')) return t.skip('not an x86-64 Debian machine');
  const sysroot = hostSysroot();
  const loader = sysroot('/lib64/ld-linux-x86-64.so.2');
  assert.ok(loader && loader[0] === 0x7f && loader[1] === 0x45, 'the loader, through its link');
  assert.equal(sysroot('/etc/passwd'), null);
  assert.equal(sysroot('/lib/x86_64-linux-gnu/../../../etc/passwd'), null);
  assert.equal(sysroot('/lib/x86_64-linux-gnu'), null, 'a directory');
  assert.equal(sysroot('/lib/x86_64-linux-gnu/no-such-library.so'), null);
});

test('sysroot: a link inside the directories that points out of them is refused', () => {
  const dir = mkdtempSync(join(tmpdir(), 'binlens-sysroot-'));
  try {
    const libs = join(dir, 'libs');
    mkdirSync(libs);
    writeFileSync(join(dir, 'secret'), 'key');
    symlinkSync(join(dir, 'secret'), join(libs, 'libc.so.6'));
    writeFileSync(join(libs, 'libm.so.6'), 'elf');
    const sysroot = hostSysroot([`${libs}/`]);
    assert.equal(sysroot(join(libs, 'libc.so.6')), null);
    assert.equal(new TextDecoder().decode(sysroot(join(libs, 'libm.so.6'))!), 'elf');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('sysroot: cross libraries are served at the paths the guest loader asks for, nothing else', () => {
  const dir = mkdtempSync(join(tmpdir(), 'binlens-sysroot-'));
  try {
    const lib = join(dir, 'lib') + '/';
    mkdirSync(lib);
    writeFileSync(join(lib, 'libc.so.6'), 'elf');
    writeFileSync(join(dir, 'secret'), 'key');
    symlinkSync(join(dir, 'secret'), join(lib, 'libz.so.1'));
    const sysroot = crossSysroot(lib, 'aarch64-linux-gnu');
    for (const p of ['/lib/libc.so.6', '/lib/aarch64-linux-gnu/libc.so.6', '/usr/lib/aarch64-linux-gnu/libc.so.6'])
      assert.equal(new TextDecoder().decode(sysroot(p)!), 'elf', p);
    assert.equal(sysroot('/etc/libc.so.6'), null);
    assert.equal(sysroot('/lib/x86_64-linux-gnu/libc.so.6'), null);
    assert.equal(sysroot('/lib/aarch64-linux-gnu/../../secret'), null);
    assert.equal(sysroot('/lib/libz.so.1'), null, 'a link out of the directory');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
