// Structure layouts merged across functions, on hand-assembled x86-64.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { signaturesOf } from '../../../test/helpers/engine/ir.js';

test('structures: a pointer passed on unchanged shares its callee’s layout; one passed at an offset holds the callee’s structure there', async () => {
  const code = [
    // 0x1000 a(struct S *p): return p->f0 + p->f8;
    ...[0x8b, 0x07], // mov eax, [rdi]
    ...[0x03, 0x47, 0x08], // add eax, [rdi+8]
    ...[0xc3], // ret
    // 0x1006 b(struct S *p): p->f4 = 1; return a(p);
    ...[0x48, 0x83, 0xec, 0x08], // sub rsp, 8
    ...[0xc7, 0x47, 0x04, 0x01, 0x00, 0x00, 0x00], // mov dword [rdi+4], 1
    ...[0xe8, 0xea, 0xff, 0xff, 0xff], // call 0x1000
    ...[0x48, 0x83, 0xc4, 0x08], // add rsp, 8
    ...[0xc3], // ret
    // 0x101b c(struct T *q): q->f0 = 7; return b(&q->inner);  (inner at offset 16)
    ...[0x48, 0x83, 0xec, 0x08], // sub rsp, 8
    ...[0xc7, 0x07, 0x07, 0x00, 0x00, 0x00], // mov dword [rdi], 7
    ...[0x48, 0x8d, 0x7f, 0x10], // lea rdi, [rdi+16]
    ...[0xe8, 0xd8, 0xff, 0xff, 0xff], // call 0x1006
    ...[0x48, 0x83, 0xc4, 0x08], // add rsp, 8
    ...[0xc3], // ret
  ];
  const sigs = await signaturesOf({
    arch: 'x86_64',
    sections: [{ name: '.text', vaddr: 0x1000, bytes: code, exec: true }],
    entryPoints: [{ vaddr: 0x101b, kind: 'entry' }],
  });
  const layout = (at: number) => sigs.get(at)!.params[0]!.fields?.map((f) => `${f.offset}:${f.size}`);
  assert.deepEqual(layout(0x1000), ['0:4', '4:4', '8:4'], 'a sees the field b writes');
  assert.deepEqual(layout(0x1006), ['0:4', '4:4', '8:4'], 'b sees the fields a reads');
  assert.deepEqual(sigs.get(0x1000)!.params[0]!.structure, sigs.get(0x1006)!.params[0]!.structure, 'one type');
  assert.deepEqual(layout(0x101b), ['0:4', '16:4', '20:4', '24:4'], 'c holds S at 16; S does not hold T');
  assert.notDeepEqual(sigs.get(0x101b)!.params[0]!.structure, sigs.get(0x1000)!.params[0]!.structure);
});

test('structures: a parameter many callers pass different pointers to, reading no structure itself, merges none of them', async () => {
  const code = [
    // 0x1000 z(void *p): return *(char *)p;  (a generic pointer: one byte at its start)
    ...[0x0f, 0xb6, 0x07, 0xc3], // movzx eax, byte [rdi]; ret
    // 0x1004, 0x1012, 0x1020: x_k(struct X_k *p): p->f_(4k) = 1; return z(p);
    ...[4, 8, 12].flatMap((off) => [
      ...[0x48, 0x83, 0xec, 0x08], // sub rsp, 8
      ...[0xc6, 0x47, off, 0x01], // mov byte [rdi+off], 1
      ...[0xe8, 0, 0, 0, 0], // call 0x1000 (patched below)
      ...[0x48, 0x83, 0xc4, 0x08, 0xc3], // add rsp, 8; ret
    ]),
  ];
  // Each caller is 18 bytes; its call ends 13 bytes in.
  for (let k = 0; k < 3; k++) code.splice(4 + 18 * k + 9, 4, ...rel32(0x1000 - (0x1004 + 18 * k + 13)));
  const sigs = await signaturesOf({
    arch: 'x86_64',
    sections: [{ name: '.text', vaddr: 0x1000, bytes: code, exec: true }],
    entryPoints: [0x1004, 0x1016, 0x1028].map((vaddr) => ({ vaddr, kind: 'entry' as const })),
  });
  for (const [at, off] of [
    [0x1004, 4],
    [0x1016, 8],
    [0x1028, 12],
  ] as const)
    assert.deepEqual(
      sigs.get(at)!.params[0]!.fields?.map((f) => `${f.offset}:${f.size}`),
      [`${off}:1`],
      `0x${at.toString(16)} keeps its own field only`,
    );
});

const rel32 = (n: number) => [n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff, (n >>> 24) & 0xff];
