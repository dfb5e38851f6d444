// Signature recovery on hand-assembled functions, and against the DWARF truth of the corpus's type twins
// (../shared/corpus/types; skipped with a message when the corpus is not there).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CORPUS } from '../../../test/helpers/engine/disasm.js';
import { corpusArgumentCounts, signaturesOf } from '../../../test/helpers/engine/ir.js';
import { existsSync, readFileSync } from 'node:fs';
import { recoverBinaryFunctions } from '../recover-binary.js';
import { formatType, libraryFor, recoverFunctionSignatures } from './index.js';

test('signatures (SysV x86-64): an argument used as an address is a pointer, one read as 32 bits an int32; a caller reading eax makes the callee non-void', async () => {
  const code = [
    // 0x1000 f(int a, int *p): *p = a; return a + 1;
    ...[0x89, 0x3e], // mov [rsi], edi
    ...[0x8d, 0x47, 0x01], // lea eax, [rdi+1]
    ...[0xc3], // ret
    // 0x1006 g(): return f(5, &local) * 2;
    ...[0x48, 0x83, 0xec, 0x18], // sub rsp, 0x18
    ...[0x48, 0x8d, 0x74, 0x24, 0x0c], // lea rsi, [rsp+0xc]
    ...[0xbf, 0x05, 0x00, 0x00, 0x00], // mov edi, 5
    ...[0xe8, 0xe7, 0xff, 0xff, 0xff], // call 0x1000
    ...[0x01, 0xc0], // add eax, eax
    ...[0x48, 0x83, 0xc4, 0x18], // add rsp, 0x18
    ...[0xc3], // ret
  ];
  const sigs = await signaturesOf({
    arch: 'x86_64',
    sections: [{ name: '.text', vaddr: 0x1000, bytes: code, exec: true }],
    entryPoints: [{ vaddr: 0x1006, kind: 'entry' }],
  });
  const f = sigs.get(0x1000)!;
  assert.equal(f.convention, 'sysv');
  assert.deepEqual(
    f.params.map((p) => p.cls),
    ['int32', 'pointer'],
  );
  assert.equal(f.returns.cls, 'int32');
  const g = sigs.get(0x1006)!;
  assert.deepEqual(g.params, []);
  assert.equal(g.returns.cls, 'int32', 'g returns the doubled result: a value computed for the return');
});

test('signatures (i386 cdecl): stack arguments read above the return address, and a tail jump inherits its callee’s', async () => {
  const code = [
    // 0x1000 h(int a, int b): return a - b;
    ...[0x8b, 0x44, 0x24, 0x04], // mov eax, [esp+4]
    ...[0x2b, 0x44, 0x24, 0x08], // sub eax, [esp+8]
    ...[0xc3], // ret
    // 0x1009 w(int a, int b): return h(a, b);  (tail jump)
    ...[0xe9, 0xf2, 0xff, 0xff, 0xff], // jmp 0x1000
    // 0x100e main: return w(1, 2) + 1;
    ...[0x6a, 0x02, 0x6a, 0x01], // push 2; push 1
    ...[0xe8, 0xf2, 0xff, 0xff, 0xff], // call 0x1009
    ...[0x83, 0xc4, 0x08], // add esp, 8
    ...[0x83, 0xc0, 0x01, 0xc3], // add eax, 1; ret
  ];
  const sigs = await signaturesOf({
    arch: 'x86',
    sections: [{ name: '.text', vaddr: 0x1000, bytes: code, exec: true }],
    entryPoints: [
      { vaddr: 0x100e, kind: 'entry' },
      { vaddr: 0x1009, kind: 'init' },
    ],
  });
  for (const at of [0x1000, 0x1009]) {
    const s = sigs.get(at)!;
    assert.equal(s.params.length, 2, `0x${at.toString(16)}`);
    assert.equal(s.returns.cls, 'int32', `0x${at.toString(16)}`);
  }
});

test('signatures (x86-64): `push rax` … `pop rax` only aligns the stack, leaving the return register as it came (void)', async () => {
  const code = [
    // 0x1000 f(): g();  (clang keeps the stack aligned with a push and pop of rax)
    ...[0x50], // push rax
    ...[0xe8, 0x02, 0x00, 0x00, 0x00], // call 0x1008
    ...[0x58, 0xc3], // pop rax; ret
    // 0x1008 g(): return 1;
    ...[0xb8, 0x01, 0x00, 0x00, 0x00, 0xc3],
  ];
  const sigs = await signaturesOf({
    arch: 'x86_64',
    sections: [{ name: '.text', vaddr: 0x1000, bytes: code, exec: true }],
    entryPoints: [{ vaddr: 0x1000, kind: 'entry' }],
  });
  assert.equal(sigs.get(0x1000)!.returns.cls, 'void');
  assert.equal(sigs.get(0x1008)!.returns.cls, 'int32');
});

test('signatures (x86-64): a function ending in a void callee on one path and a non-void one on another is void', async () => {
  const code = [
    // 0x1000 f(int c, int *p): if (c) g(p); else h();  (both tail calls)
    ...[0x85, 0xff], // test edi, edi
    ...[0x75, 0x05], // jne 0x1009
    ...[0xe9, 0x07, 0x00, 0x00, 0x00], // jmp 0x1010
    ...[0xe9, 0x12, 0x00, 0x00, 0x00], // 0x1009: jmp 0x1020
    ...new Array<number>(2).fill(0xcc),
    // 0x1010 h(): return 1;
    ...[0xb8, 0x01, 0x00, 0x00, 0x00, 0xc3],
    ...new Array<number>(10).fill(0xcc),
    // 0x1020 g(int *p): *p = 0;
    ...[0xc7, 0x07, 0x00, 0x00, 0x00, 0x00, 0xc3],
  ];
  const sigs = await signaturesOf({
    arch: 'x86_64',
    sections: [{ name: '.text', vaddr: 0x1000, bytes: code, exec: true }],
    entryPoints: [
      { vaddr: 0x1000, kind: 'entry' },
      { vaddr: 0x1010, kind: 'init' },
      { vaddr: 0x1020, kind: 'init' },
    ],
  });
  assert.equal(sigs.get(0x1010)!.returns.cls, 'int32');
  assert.equal(sigs.get(0x1020)!.returns.cls, 'void');
  assert.equal(sigs.get(0x1000)!.returns.cls, 'void', 'h’s result is dropped where g’s path has none');
});

test('signatures (x86-64): a function whose every exit jumps through a pointer passes that function’s result on', async () => {
  const code = [
    // 0x1000 f(struct s *p, int x): return p->fn(x);
    ...[0x48, 0x8b, 0x47, 0x08], // mov rax, [rdi+8]
    ...[0x89, 0xf7], // mov edi, esi
    ...[0xff, 0xe0], // jmp rax
  ];
  const sigs = await signaturesOf({
    arch: 'x86_64',
    sections: [{ name: '.text', vaddr: 0x1000, bytes: code, exec: true }],
    entryPoints: [{ vaddr: 0x1000, kind: 'entry' }],
  });
  assert.notEqual(sigs.get(0x1000)!.returns.cls, 'void');
});

test('signatures (i386): a stack argument read before its slot is rewritten (for a tail call) is still an argument; one read after a store that always runs first is not', async () => {
  const code = [
    // 0x1000 f(p, x): return g(*p + x);  (the tail call reuses f's first slot)
    ...[0x8b, 0x54, 0x24, 0x04], // mov edx, [esp+4]
    ...[0x8b, 0x12], // mov edx, [edx]
    ...[0x03, 0x54, 0x24, 0x08], // add edx, [esp+8]
    ...[0x89, 0x54, 0x24, 0x04], // mov [esp+4], edx
    ...[0xe9, 0x0d, 0x00, 0x00, 0x00], // jmp 0x1020
    // 0x1013 k(): the slot is written before it is read
    ...[0xc7, 0x44, 0x24, 0x04, 0x05, 0x00, 0x00, 0x00], // mov dword [esp+4], 5
    ...[0x8b, 0x44, 0x24, 0x04, 0xc3], // mov eax, [esp+4]; ret
    // 0x1020 g(int v): return v;
    ...[0x8b, 0x44, 0x24, 0x04, 0xc3],
  ];
  const sigs = await signaturesOf({
    arch: 'x86',
    sections: [{ name: '.text', vaddr: 0x1000, bytes: code, exec: true }],
    entryPoints: [
      { vaddr: 0x1000, kind: 'entry' },
      { vaddr: 0x1013, kind: 'init' },
      { vaddr: 0x1020, kind: 'init' },
    ],
  });
  const f = sigs.get(0x1000)!;
  assert.equal(f.params.length, 2);
  assert.equal(f.params[0]!.cls, 'pointer', 'p is dereferenced before its slot takes g’s argument');
  assert.deepEqual(sigs.get(0x1013)!.params, []);
});

test('signatures (x86-64): a word compared as signed (jl, js) is an integer; one only tested against null a pointer', async () => {
  const code = [
    // 0x1000 f(long n): return n < 0 ? 0 : …;
    ...[0x48, 0x85, 0xff, 0x78, 0x01, 0xc3], // test rdi, rdi; js 0x1006; ret
    ...[0x31, 0xc0, 0xc3], // 0x1006: xor eax, eax; ret
    // 0x1009 g(void *p): return p == 0;
    ...[0x31, 0xc0, 0x48, 0x83, 0xff, 0x00], // xor eax, eax; cmp rdi, 0
    ...[0x0f, 0x94, 0xc0, 0xc3], // sete al; ret
  ];
  const sigs = await signaturesOf({
    arch: 'x86_64',
    sections: [{ name: '.text', vaddr: 0x1000, bytes: code, exec: true }],
    entryPoints: [
      { vaddr: 0x1000, kind: 'entry' },
      { vaddr: 0x1009, kind: 'init' },
    ],
  });
  assert.deepEqual(
    sigs.get(0x1000)!.params.map((p) => p.cls),
    ['int64'],
  );
  assert.deepEqual(
    sigs.get(0x1009)!.params.map((p) => p.cls),
    ['pointer'],
  );
});

test('signatures (i386): every read of a stack argument counts, loads inside bigger expressions too', async () => {
  const code = [
    // 0x1000 f(int n): return n > 5;  (the only read is inside the comparison)
    ...[0x31, 0xc0, 0x83, 0x7c, 0x24, 0x04, 0x05], // xor eax, eax; cmp dword [esp+4], 5
    ...[0x0f, 0x9f, 0xc0, 0xc3], // setg al; ret
    // 0x100b h(int n): g = n; return n << 2;  (the second read is the telling one)
    ...[0x8b, 0x44, 0x24, 0x04], // mov eax, [esp+4]
    ...[0xa3, 0x00, 0x20, 0x00, 0x00], // mov [0x2000], eax
    ...[0x8b, 0x44, 0x24, 0x04], // mov eax, [esp+4]
    ...[0xc1, 0xe0, 0x02, 0xc3], // shl eax, 2; ret
  ];
  const sigs = await signaturesOf({
    arch: 'x86',
    sections: [{ name: '.text', vaddr: 0x1000, bytes: code, exec: true }],
    entryPoints: [
      { vaddr: 0x1000, kind: 'entry' },
      { vaddr: 0x100b, kind: 'init' },
    ],
  });
  for (const at of [0x1000, 0x100b])
    assert.deepEqual(
      sigs.get(at)!.params.map((p) => p.cls),
      ['int32'],
      `0x${at.toString(16)}`,
    );
});

test('signatures: a spill slot reused for another value passes on only what the store reaching each reload put there', async () => {
  const code = [
    // 0x1000 f(long n, long *q): *q = n * n;  (-O0 style, one slot for both)
    ...[0x48, 0x83, 0xec, 0x18], // sub rsp, 0x18
    ...[0x48, 0x89, 0x7c, 0x24, 0x08], // mov [rsp+8], rdi
    ...[0x48, 0x8b, 0x44, 0x24, 0x08], // mov rax, [rsp+8]
    ...[0x48, 0x0f, 0xaf, 0xc0], // imul rax, rax
    ...[0x48, 0x89, 0x74, 0x24, 0x08], // mov [rsp+8], rsi
    ...[0x48, 0x8b, 0x54, 0x24, 0x08], // mov rdx, [rsp+8]
    ...[0x48, 0x89, 0x02], // mov [rdx], rax
    ...[0x48, 0x83, 0xc4, 0x18, 0xc3], // add rsp, 0x18; ret
  ];
  const f = (
    await signaturesOf({
      arch: 'x86_64',
      sections: [{ name: '.text', vaddr: 0x1000, bytes: code, exec: true }],
      entryPoints: [{ vaddr: 0x1000, kind: 'entry' }],
    })
  ).get(0x1000)!;
  assert.deepEqual(
    f.params.map((p) => p.cls),
    ['int64', 'pointer'],
    'n is no address for being in q’s slot later',
  );
});

test('signatures (x86-64): an argument spilled as 32 bits is no pointer for being passed where the callee takes one', async () => {
  const code = [
    // 0x1000 f(int x): g(x);  (the caller widens nothing; g reads all of rdi)
    ...[0x48, 0x83, 0xec, 0x18], // sub rsp, 0x18
    ...[0x89, 0x7c, 0x24, 0x0c], // mov [rsp+0xc], edi
    ...[0x8b, 0x7c, 0x24, 0x0c], // mov edi, [rsp+0xc]
    ...[0xe8, 0x05, 0x00, 0x00, 0x00], // call 0x1016
    ...[0x48, 0x83, 0xc4, 0x18, 0xc3], // add rsp, 0x18; ret
    // 0x1016 g(int *p): return *p;
    ...[0x8b, 0x07, 0xc3],
  ];
  const sigs = await signaturesOf({
    arch: 'x86_64',
    sections: [{ name: '.text', vaddr: 0x1000, bytes: code, exec: true }],
    entryPoints: [{ vaddr: 0x1000, kind: 'entry' }],
  });
  assert.equal(sigs.get(0x1016)!.params[0]!.cls, 'pointer');
  assert.deepEqual(
    sigs.get(0x1000)!.params.map((p) => p.cls),
    ['int32'],
  );
});

test('signatures (i386): a value called or jumped through is a pointer, even compared with a sentinel', async () => {
  const code = [
    // 0x1000 f(void (*cb)(void)): if (cb != (void *)-1) cb();  (SQLite's SQLITE_TRANSIENT)
    ...[0x8b, 0x44, 0x24, 0x04], // mov eax, [esp+4]
    ...[0x83, 0xf8, 0xff, 0x74, 0x02], // cmp eax, -1; je 0x100b
    ...[0xff, 0xe0, 0xc3], // jmp eax; 0x100b: ret
  ];
  const sigs = await signaturesOf({
    arch: 'x86',
    sections: [{ name: '.text', vaddr: 0x1000, bytes: code, exec: true }],
    entryPoints: [{ vaddr: 0x1000, kind: 'entry' }],
  });
  assert.deepEqual(
    sigs.get(0x1000)!.params.map((p) => p.cls),
    ['pointer'],
  );
});

test('signatures: a word only stored is a pointer where int is narrower than an address, an int32 where it is not (i386)', async () => {
  const store = async (arch: 'x86' | 'x86_64', code: number[]) =>
    (
      await signaturesOf({
        arch,
        sections: [{ name: '.text', vaddr: 0x1000, bytes: code, exec: true }],
        entryPoints: [{ vaddr: 0x1000, kind: 'entry' }],
      })
    )
      .get(0x1000)!
      .params.map((p) => p.cls);
  // i386 f(x): global = x;
  assert.deepEqual(await store('x86', [0x8b, 0x44, 0x24, 0x04, 0xa3, 0x00, 0x20, 0x00, 0x00, 0xc3]), ['int32']);
  // x86-64 f(x): global = x;  (mov [rip+0xff9], rdi; ret)
  assert.deepEqual(await store('x86_64', [0x48, 0x89, 0x3d, 0xf9, 0x0f, 0x00, 0x00, 0xc3]), ['pointer']);
});

test('signatures (i386): ecx and edx taken with eax untouched are fastcall (ecx first); ecx alone thiscall', async () => {
  const code = [
    ...[0x8d, 0x04, 0x11, 0xc3], // 0x1000 fast(a, b): lea eax, [ecx+edx]; ret
    ...[0x8b, 0x01, 0xc3], // 0x1004 method(this): mov eax, [ecx]; ret
  ];
  const sigs = await signaturesOf({
    arch: 'x86',
    sections: [{ name: '.text', vaddr: 0x1000, bytes: code, exec: true }],
    entryPoints: [
      { vaddr: 0x1000, kind: 'entry' },
      { vaddr: 0x1004, kind: 'init' },
    ],
  });
  const fast = sigs.get(0x1000)!;
  assert.equal(fast.convention, 'fastcall');
  assert.deepEqual(
    fast.params.map((p) => p.location),
    [
      { kind: 'int', index: 2 },
      { kind: 'int', index: 1 },
    ],
    'ecx, then edx',
  );
  const method = sigs.get(0x1004)!;
  assert.equal(method.convention, 'thiscall');
  assert.deepEqual(
    method.params.map((p) => p.cls),
    ['pointer'],
  );
});

test('signatures: an argument passed to a library function takes its declared type (strlen: const char *), its wrapper its return type', async () => {
  const code = [
    // 0x1000 f(s): return strlen(s);
    ...[0x48, 0x83, 0xec, 0x08], // sub rsp, 8
    ...[0xe8, 0xf7, 0x00, 0x00, 0x00], // call 0x1100 (strlen@plt)
    ...[0x48, 0x83, 0xc4, 0x08, 0xc3], // add rsp, 8; ret
    ...new Array<number>(0x100 - 14).fill(0xcc),
    ...[0xff, 0x25, 0xfa, 0x0e, 0x00, 0x00], // 0x1100: jmp [rip+0xefa] → slot 0x2000
  ];
  const image = {
    arch: 'x86_64' as const,
    sections: [
      { name: '.text', vaddr: 0x1000, bytes: code, exec: true },
      { name: '.got', vaddr: 0x2000, bytes: new Array<number>(8).fill(0) },
    ],
    entryPoints: [{ vaddr: 0x1000, kind: 'entry' as const }],
    imports: [{ name: 'strlen', library: null, slot: 0x2000, stubs: [0x1100] }],
  };
  const f = (await signaturesOf(image)).get(0x1000)!;
  assert.equal(f.params.length, 1);
  assert.equal(f.params[0]!.cls, 'pointer');
  assert.equal(f.params[0]!.declared && formatType(f.params[0]!.declared), 'const char *');
  assert.equal(f.returns.declared && formatType(f.returns.declared), 'size_t', 'it returns what strlen returns');
});

test('signatures: a stack variable loaded and passed to a library function takes the parameter’s declared type', async () => {
  const code = [
    // 0x1000 f(s): char *v = s; return strlen(v);  (-O0 style: the variable lives in the frame)
    ...[0x48, 0x83, 0xec, 0x18], // sub rsp, 0x18
    ...[0x48, 0x89, 0x7c, 0x24, 0x08], // mov [rsp+8], rdi
    ...[0x48, 0x8b, 0x7c, 0x24, 0x08], // mov rdi, [rsp+8]
    ...[0xe8, 0xed, 0x00, 0x00, 0x00], // call 0x1100 (strlen@plt)
    ...[0x48, 0x83, 0xc4, 0x18, 0xc3], // add rsp, 0x18; ret
    ...new Array<number>(0x100 - 0x18).fill(0xcc),
    ...[0xff, 0x25, 0xfa, 0x0e, 0x00, 0x00], // 0x1100: jmp [rip+0xefa] → slot 0x2000
  ];
  const f = (
    await signaturesOf({
      arch: 'x86_64',
      sections: [
        { name: '.text', vaddr: 0x1000, bytes: code, exec: true },
        { name: '.got', vaddr: 0x2000, bytes: new Array<number>(8).fill(0) },
      ],
      entryPoints: [{ vaddr: 0x1000, kind: 'entry' }],
      imports: [{ name: 'strlen', library: null, slot: 0x2000, stubs: [0x1100] }],
    })
  ).get(0x1000)!;
  // rsp is entry sp − 0x18 after the sub, so [rsp+8] is entry sp − 0x10.
  const v = f.frame.find((x) => x.offset === -0x10);
  assert.ok(v, JSON.stringify(f.frame));
  assert.equal(v.declared && formatType(v.declared), 'const char *');
});

test('signatures: exact argument count against DWARF on lz4 x86-64 (gcc -O0 ≥ 0.93, -O2 ≥ 0.85)', async (t) => {
  const cases = [
    ['lz4-1.10.0_linux-x86_64_gcc12_O0', 0.93],
    ['lz4-1.10.0_linux-x86_64_gcc12_O2', 0.85],
  ] as const;
  for (const [name, floor] of cases) {
    const counts = await corpusArgumentCounts('lz4', name);
    if (!counts) {
      t.skip(`${CORPUS} absent: no type truth to compare with`);
      return;
    }
    const { functions: n, exact } = counts;
    assert.ok(n > 100, `${name}: ${n} functions matched by address`);
    assert.ok(exact / n >= floor, `${name}: exact argument count ${(exact / n).toFixed(3)} < ${floor}`);
  }
});

test('signatures: a function nothing in the binary calls returns the float it computes last (its own code is all the evidence)', async () => {
  const code = [
    ...[0xf3, 0x0f, 0x10, 0x07], // movss xmm0, [rdi]
    ...[0xf3, 0x0f, 0x58, 0xc0], // addss xmm0, xmm0
    ...[0xc3], // ret
  ];
  const sigs = await signaturesOf({
    arch: 'x86_64',
    sections: [{ name: '.text', vaddr: 0x1000, bytes: code, exec: true }],
    entryPoints: [{ vaddr: 0x1000, kind: 'export' }],
  });
  const f = sigs.get(0x1000)!;
  assert.deepEqual(f.returns, { cls: 'float32', width: 4 });
  assert.deepEqual(
    f.params.map((p) => p.cls),
    ['pointer'],
  );
});

test('signatures: every recovered width is a byte count — callers that only pass a result on set none (lz4 clang -O0)', async (t) => {
  const file = `${CORPUS}/bin/lz4/lz4-1.10.0_linux-x86_64_clang14_O0_stripped`;
  if (!existsSync(file)) return t.skip(`${CORPUS} absent`);
  const { image, graph, decoders } = await recoverBinaryFunctions(readFileSync(file), {});
  const bad = recoverFunctionSignatures(image, graph, decoders, libraryFor(image)).flatMap((s, i) =>
    s && ![s.returns.width, ...s.params.map((p) => p.width)].every((w) => Number.isInteger(w) && w >= 0)
      ? [`0x${graph.functions[i]!.start.toString(16)}: ${JSON.stringify(s.returns)}`]
      : [],
  );
  assert.deepEqual(bad, []);
});
