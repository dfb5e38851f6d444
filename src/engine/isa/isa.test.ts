import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isaFamily, isaProfile, MODE_PROFILES, PROFILES } from './index.js';

test('isa: each profile is registered under its architecture, and its decoder modes lead back to it', () => {
  for (const [arch, isa] of Object.entries(PROFILES)) {
    assert.equal(isa.architecture, arch);
    for (const order of ['little', 'big'] as const) assert.equal(MODE_PROFILES[isa.modeFor(order)], isa, arch);
    if (isa.thumb) assert.equal(MODE_PROFILES.thumb, isa);
  }
  assert.equal(PROFILES.mips.modeFor('big'), 'mips');
  assert.equal(PROFILES.mips.modeFor('little'), 'mipsel');
  assert.equal(isaProfile('ppc'), null);
  assert.equal(isaProfile('unknown'), null);
  assert.equal(isaFamily('thumb'), 'arm');
  assert.equal(isaFamily('x86_64'), 'x86');
});

test('isa: alignment padding per instruction set', () => {
  const pad = (arch: keyof typeof PROFILES, hex: string) =>
    PROFILES[arch].padding(new Uint8Array(Buffer.from(hex, 'hex')), 0);
  assert.equal(pad('x86_64', '90'), 1);
  assert.equal(pad('x86_64', 'cc'), 1);
  assert.equal(pad('x86_64', '6690'), 2);
  assert.equal(pad('x86_64', '0f1f440000'), 5); // nop dword [rax+rax+0]
  assert.equal(pad('x86_64', '662e0f1f840000000000'), 10); // nop word cs:[rax+rax+0]
  assert.equal(pad('x86', '8d7600'), 3); // lea esi, [esi+0]
  assert.equal(pad('x86', '8db42600000000'), 7); // lea esi, [esi*1+0]
  assert.equal(pad('x86_64', '4889e5'), 0); // mov rbp, rsp
  assert.equal(pad('arm64', '1f2003d5'), 4); // nop
  assert.equal(pad('arm64', 'fd7bbfa9'), 0); // stp x29, x30, [sp, #-16]!
  assert.equal(pad('arm', '00bf'), 2); // Thumb nop
  assert.equal(pad('arm', 'aff30080'), 4); // nop.w
  assert.equal(pad('mips', '00000000'), 4);
  assert.equal(pad('mips', '27bdffe0'), 0);
});

test('isa: names in model names and capa rules', () => {
  assert.deepEqual(
    Object.values(PROFILES).map((p) => [p.names.model, p.names.capa]),
    [
      ['x86-32', 'i386'],
      ['x86-64', 'amd64'],
      ['arm-32', 'arm'],
      ['arm-64', 'aarch64'],
      ['mips-32', 'mips'],
    ],
  );
});
