// The decompiler against HumanEval-Decompile problems (../shared/decompile-bench): compiled at -O0 and -O2,
// func0 decompiled from the linked executable alone, its C compiled with the problem's own test main and
// run — the test passes only if the output computes what the machine code does. Skipped with a message
// when the benchmark or gcc is absent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { recoverBinaryFunctions } from '../recover-binary.js';
import { hasCommand } from '../../../test/helpers/commands.js';
import { decompile } from './index.js';

const BENCH = resolve(process.cwd(), '..', 'shared', 'decompile-bench', 'problems.json');
const hasGcc = hasCommand('gcc');
const hasCross = hasCommand('aarch64-linux-gnu-gcc');

/** `source` (decompiled C with a main) built by gcc in `dir` and run: throws when it does not exit 0. */
function compiledAndRun(dir: string, source: string): void {
  writeFileSync(join(dir, 'check.c'), source);
  execFileSync('gcc', ['-w', 'check.c', '-o', 'check'], { cwd: dir, stdio: 'pipe' });
  execFileSync('./check', { cwd: dir, stdio: 'pipe' });
}

/** `source` built by gcc at `level` in `dir` (as `f`), and the C of the functions named `names`. */
async function decompiledFrom(dir: string, source: string, level: string, names: string[]) {
  writeFileSync(join(dir, 'f.c'), source);
  execFileSync('gcc', [level, '-o', 'f', 'f.c'], { cwd: dir, stdio: 'ignore' });
  const { image, graph, decoders } = await recoverBinaryFunctions(readFileSync(join(dir, 'f')), {});
  const starts = names.map((n) => image.symbols.find((s) => s.name === n)!.vaddr);
  const roots = starts.map((start) => graph.functions.findIndex((f) => f.start === start));
  return { out: decompile(image, graph, decoders, roots), starts };
}

interface Problem {
  index: number;
  c_func: string;
  c_test: string;
}

const includes = (c: string) => c.split('\n').filter((l) => /^\s*#\s*include/.test(l));

// Floats and fabs (0), strings and malloc (12), loops over arrays (24), a string built char by char (36);
// a palindrome built from a string (10); x86-64, and AArch64 built with the cross compiler (the test still runs here, as the protocol says).
const cases = [
  ...[0, 12, 24, 36].flatMap((index) => ['O0', 'O2'].map((level) => ({ index, level, cc: 'gcc' }))),
  // -O3 vectorises problem 160's loop (paddd, pshufd): the SSE lanes as standard C.
  { index: 160, level: 'O3', cc: 'gcc' },
  ...[10, 24].map((index) => ({ index, level: 'O2', cc: 'aarch64-linux-gnu-gcc' })),
];
for (const { index, level, cc } of cases)
  test(`decompile: HumanEval-Decompile problem ${index} built by ${cc} -${level} recompiles with its test and passes`, async (t) => {
    if (!existsSync(BENCH) || !hasGcc) return t.skip(`${BENCH} or gcc absent`);
    if (cc !== 'gcc' && !hasCross) return t.skip(`${cc} absent`);
    const p = (JSON.parse(readFileSync(BENCH, 'utf8')) as { problems: Problem[] }).problems.find(
      (x) => x.index === index,
    )!;
    const dir = mkdtempSync(join(tmpdir(), 'binlens-decompile-test-'));
    try {
      writeFileSync(join(dir, 'func.c'), p.c_func);
      writeFileSync(join(dir, 'stub.c'), 'int main(void) { return 0; }\n');
      execFileSync(cc, [`-${level}`, '-o', 'func', 'func.c', 'stub.c', '-lm'], { cwd: dir, stdio: 'ignore' });
      const { image, graph, decoders } = await recoverBinaryFunctions(readFileSync(join(dir, 'func')), {});
      const start = image.symbols.find((s) => s.name === 'func0')!.vaddr;
      const out = decompile(image, graph, decoders, [graph.functions.findIndex((f) => f.start === start)]);
      assert.deepEqual(
        out.functions.filter((f) => f.error),
        [],
        'every function decompiles',
      );
      assert.ok(!out.source.includes('#include <assert.h>'), 'standard headers of its own only');
      const body = p.c_test
        .split('\n')
        .filter((l) => !/^\s*#\s*include/.test(l))
        .join('\n');
      writeFileSync(join(dir, 'test.c'), [...includes(p.c_func), ...includes(p.c_test), out.source, body].join('\n'));
      execFileSync('gcc', ['test.c', '-o', 'test', '-lm'], { cwd: dir, stdio: 'pipe' });
      execFileSync('timeout', ['10', './test'], { cwd: dir, stdio: 'ignore' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

const READABLE = `
int sum(int *a, int n) { int s = 0; for (int i = 0; i < n; i++) { if (a[i] > 10) s += a[i]; else s -= 1; } return s; }
int find(const char *s, char c) { while (*s) { if (*s == c) return 1; s++; } return 0; }
int classify(int x) { if (x < 0) return -1; if (x == 0) return 0; if (x > 100) return 2; return 1; }
int main(void) { return 0; }
`;
const CHECK = `
#include <assert.h>
int main(void) {
  int a[5] = {1, 20, 30, 4, 11};
  assert(sum(a, 5) == 59 && sum(a, 0) == 0);
  assert(find("hello", 'l') == 1 && find("hello", 'z') == 0 && find("", 'a') == 0);
  assert(classify(-5) == -1 && classify(0) == 0 && classify(7) == 1 && classify(101) == 2);
  return 0;
}
`;

for (const level of ['O0', 'O2'])
  test(`decompile: -${level} loops and branches come out structured (for/while/do-while, if/else, no goto), frame slots as locals, and still compute the same`, async (t) => {
    if (!hasGcc) return t.skip('gcc absent');
    const dir = mkdtempSync(join(tmpdir(), 'binlens-decompile-test-'));
    try {
      writeFileSync(join(dir, 'f.c'), READABLE);
      execFileSync('gcc', [`-${level}`, '-fno-inline', '-o', 'f', 'f.c'], { cwd: dir, stdio: 'ignore' });
      const { image, graph, decoders } = await recoverBinaryFunctions(readFileSync(join(dir, 'f')), {});
      const index = (name: string) =>
        graph.functions.findIndex((f) => f.start === image.symbols.find((s) => s.name === name)!.vaddr);
      const out = decompile(image, graph, decoders, ['sum', 'find', 'classify'].map(index));
      const text = out.functions.map((f) => f.text ?? f.error).join('\n');
      assert.doesNotMatch(text, /\bgoto\b/, text);
      assert.match(text, /\b(while|do|for)\b/, text);
      if (level === 'O0') {
        // Named as the function's data types name its stack variables (recovered: var_<offset>).
        assert.match(text, /\bvar_[0-9a-f]+ = /, 'the -O0 frame slots are named locals');
        assert.doesNotMatch(text, /bl_frame/, 'no frame array left where every slot is a local');
      }
      writeFileSync(join(dir, 'check.c'), `${out.source}\n${CHECK}`);
      execFileSync('gcc', ['check.c', '-o', 'check', '-lm'], { cwd: dir, stdio: 'pipe' });
      execFileSync('timeout', ['10', './check'], { cwd: dir, stdio: 'pipe' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

test('decompile: strings in read-only data passed to calls are C string literals, and printf gets the arguments its format names', async (t) => {
  if (!hasGcc) return t.skip('gcc absent');
  const dir = mkdtempSync(join(tmpdir(), 'binlens-decompile-test-'));
  try {
    const { out } = await decompiledFrom(
      dir,
      '#include <stdio.h>\n#include <string.h>\n' +
        'int greet(const char *who) { if (strcmp(who, "world") == 0) return puts("hello, \\"world\\"\\t??!"); return printf("hi %s, %d\\n", who, 7); }\n' +
        'int main(void) { return 0; }\n',
      '-O2',
      ['greet'],
    );
    const text = out.functions[0]!.text!;
    assert.match(text, /strcmp\([^;]*"world"\)/, text);
    assert.match(text, /puts\("hello, \\"world\\"\\t\?\\\?!"\)/, text);
    assert.match(text, /printf\("hi %s, %d\\n", [^,]+, [^,]+\)/, text);
    assert.deepEqual(
      out.functions[0]!.symbols.filter((s) => s.kind === 'string').map((s) => s.name),
      ['world', 'hello, \\"world\\"\\t?\\?!', 'hi %s, %d\\n'],
    );
    writeFileSync(
      join(dir, 'check.c'),
      `${out.source}\nint main(void) { return !(greet("world") > 0 && greet("you") == 10); }\n`,
    );
    execFileSync('gcc', ['check.c', '-o', 'check'], { cwd: dir, stdio: 'pipe' });
    assert.equal(execFileSync('./check', { cwd: dir, encoding: 'utf8' }), 'hello, "world"\t??!\nhi you, 7\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

const BIT_OPS = `#include <stdint.h>
#include <string.h>
unsigned f_clz(unsigned x) { return x ? __builtin_clz(x) : 32; }
uint64_t f_bswap(uint64_t x) { return __builtin_bswap64(x); }
uint32_t f_bswap32(uint32_t x) { return __builtin_bswap32(x); }
unsigned f_ctz(uint64_t x) { return x ? __builtin_ctzll(x) : 64; }
unsigned f_bswap16(unsigned x) { return __builtin_bswap16((uint16_t)x); }
struct bf { unsigned a:3, b:7, c:22; };
unsigned f_bfi(unsigned v, unsigned b) { struct bf s; memcpy(&s, &v, 4); s.b = b; memcpy(&v, &s, 4); return v; }
uint64_t f_umulh(uint64_t a, uint64_t b) { return (uint64_t)(((unsigned __int128)a * b) >> 64); }
int64_t f_smulh(int64_t a, int64_t b) { return (int64_t)(((__int128)a * b) >> 64); }
int f_cls(int x) { return __builtin_clrsb(x); }
uint64_t f_bts(uint64_t x, unsigned n) { return x | (1ull << (n & 63)); }
uint64_t f_btr(uint64_t x, unsigned n) { return x & ~(1ull << (n & 63)); }
uint64_t f_btc(uint64_t x, unsigned n) { return x ^ (1ull << (n & 63)); }
uint64_t f_shld(uint64_t lo, uint64_t hi, unsigned n) { unsigned __int128 v = ((unsigned __int128)hi << 64) | lo; return (uint64_t)((v << (n & 63)) >> 64); }
uint64_t f_shrd(uint64_t lo, uint64_t hi, unsigned n) { unsigned __int128 v = ((unsigned __int128)hi << 64) | lo; return (uint64_t)(v >> (n & 63)); }
`;
const BIT_NAMES = [...BIT_OPS.matchAll(/ (f_\w+)\(/g)].map((m) => m[1]!);
/** Prints every function's results over a spread of inputs, each at its own width (signedness aside). */
const BIT_HARNESS = `
#include <stdio.h>
int main(void) {
  unsigned long long xs[] = {0, 1, 0x80000000ull, 0x12345678ull, 0xdeadbeefcafef00dull, ~0ull, 0x7fffull, 0xfffffff0ull};
  for (int i = 0; i < 8; i++) {
    unsigned long long x = xs[i], y = xs[(i + 3) % 8];
    printf("%x %llx %x %x %x %x %llx %llx %x %llx %llx %llx %llx %llx\\n", (unsigned)f_clz((unsigned)x), (unsigned long long)f_bswap(x),
      (unsigned)f_bswap32((uint32_t)x), (unsigned)f_ctz(x), (unsigned)(uint16_t)f_bswap16((unsigned)x), (unsigned)f_bfi((unsigned)x, (unsigned)y),
      (unsigned long long)f_umulh(x, y), (unsigned long long)f_smulh((int64_t)x, (int64_t)y), (unsigned)f_cls((int)x),
      (unsigned long long)f_bts(x, (unsigned)y), (unsigned long long)f_btr(x, (unsigned)y), (unsigned long long)f_btc(x, (unsigned)y),
      (unsigned long long)f_shld(x, y, (unsigned)(x ^ y)), (unsigned long long)f_shrd(x, y, (unsigned)(x ^ y)));
  }
  return 0;
}
`;

/**
 * `ops` (C functions `names`) built by `cc` at `level` and decompiled, the C compiled with `harness` (which prints
 * their results) and run beside a native build of the same: the outputs must be equal. `emitted`: mnemonics
 * the build must contain (else the test would not test them).
 */
async function matchesNative(
  ops: string,
  harness: string,
  names: string[],
  cc: string,
  emitted: string[] = [],
  level = '-O2',
  flags: string[] = [],
) {
  const dir = mkdtempSync(join(tmpdir(), 'binlens-decompile-test-'));
  try {
    writeFileSync(join(dir, 'ops.c'), `${ops}int main(void) { return 0; }\n`);
    writeFileSync(join(dir, 'native.c'), ops + harness);
    execFileSync('gcc', ['-O2', ...flags, 'native.c', '-o', 'native'], { cwd: dir, stdio: 'ignore' });
    execFileSync(cc, [level, ...flags, '-fno-inline', 'ops.c', '-o', 'ops'], { cwd: dir, stdio: 'ignore' });
    if (emitted.length) {
      const disassembly = execFileSync('objdump', ['-d', 'ops'], { cwd: dir, encoding: 'utf8' });
      for (const m of emitted) assert.match(disassembly, new RegExp(`\\s${m}\\s`), `the build has ${m}`);
    }
    const { image, graph, decoders } = await recoverBinaryFunctions(readFileSync(join(dir, 'ops')), {});
    const roots = names.map((n) =>
      graph.functions.findIndex((f) => f.start === image.symbols.find((s) => s.name === n)!.vaddr),
    );
    const out = decompile(image, graph, decoders, roots);
    assert.deepEqual(
      out.functions.filter((f) => f.error).map((f) => `${f.name}: ${f.error}`),
      [],
    );
    writeFileSync(join(dir, 'check.c'), out.source + harness.replace('#include <stdio.h>', ''));
    execFileSync('gcc', ['check.c', '-o', 'check'], { cwd: dir, stdio: 'pipe' });
    assert.equal(
      execFileSync('./check', { cwd: dir, encoding: 'utf8' }),
      execFileSync('./native', { cwd: dir, encoding: 'utf8' }),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

for (const cc of ['gcc', 'aarch64-linux-gnu-gcc'])
  test(`decompile: bit operations built by ${cc} -O2 (bts/btr/btc, shld/shrd; clz, rev, rbit, bfi, umulh/smulh, cls) compute what the code does`, async (t) => {
    if (!hasGcc) return t.skip('gcc absent');
    if (cc !== 'gcc' && !hasCross) return t.skip(`${cc} absent`);
    await matchesNative(BIT_OPS, BIT_HARNESS, BIT_NAMES, cc);
  });

test('decompile: globals are read by their symbol, or g_<address> when stripped, and still compute the same', async (t) => {
  if (!hasGcc) return t.skip('gcc absent');
  const dir = mkdtempSync(join(tmpdir(), 'binlens-decompile-test-'));
  try {
    writeFileSync(
      join(dir, 'f.c'),
      'int counter; int table[4] = {1, 2, 3, 4}; int stdout_count;\n' +
        '__attribute__((noinline)) int bump(int i) { counter += table[i & 3]; return counter; }\nint main(void) { return 0; }\n',
    );
    execFileSync('gcc', ['-O2', '-o', 'f', 'f.c'], { cwd: dir, stdio: 'ignore' });
    execFileSync('strip', ['-o', 'fs', 'f'], { cwd: dir, stdio: 'ignore' });
    for (const [file, names] of [
      ['f', /\*\(uint32_t \*\)counter\b/],
      ['fs', /\*\(uint32_t \*\)g_[0-9a-f]+\b/],
    ] as const) {
      const { image, graph, decoders } = await recoverBinaryFunctions(readFileSync(join(dir, file)), {});
      const start = file === 'f' ? image.symbols.find((s) => s.name === 'bump')!.vaddr : null;
      const fi = start === null ? -1 : graph.functions.findIndex((f) => f.start === start);
      // Stripped: bump is the function that writes a global by name; then it alone is decompiled.
      const found =
        fi >= 0
          ? graph.functions[fi]!.start
          : decompile(
              image,
              graph,
              decoders,
              graph.functions.map((_, i) => i),
            ).functions.find((f) => f.text && names.test(f.text))?.address;
      const out = decompile(image, graph, decoders, [graph.functions.findIndex((f) => f.start === found)]);
      const bump = out.functions.find((f) => f.text && names.test(f.text));
      assert.ok(bump, `${file}: a function reads the counter by name:\n${out.source}`);
      assert.ok(bump.symbols.some((s) => s.kind === 'global' && names.test(`*(uint32_t *)${s.name}`)));
      // The global it writes, by the name the output gives it.
      const counter = /\*\(uint32_t \*\)(\w+) = /.exec(bump.text!)![1]!;
      compiledAndRun(
        dir,
        `${out.source}\nint main(void) { ${bump.name}(1); ${bump.name}(2); return !(*(uint32_t *)${counter} == 5); }\n`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('decompile: privileged instructions a user program faults on (cli, out) end it there, as the machine does', async (t) => {
  if (!hasGcc) return t.skip('gcc absent');
  const dir = mkdtempSync(join(tmpdir(), 'binlens-decompile-test-'));
  try {
    const { out, starts } = await decompiledFrom(
      dir,
      '__attribute__((noinline)) int poke(int x) { if (x > 7) __asm__ volatile("cli"); ' +
        'if (x < 0) __asm__ volatile("outb %%al, $0x80" : : "a"(x)); return x + 1; }\n' +
        'int main(void) { return 0; }\n',
      '-O1',
      ['poke'],
    );
    const poke = out.functions.find((f) => f.address === starts[0])!;
    assert.equal(poke.error, undefined);
    assert.equal(poke.text!.match(/abort\(\);/g)?.length, 2, poke.text!);
    // The paths that do not fault compute what the code does; those that do end (the child dies).
    compiledAndRun(
      dir,
      `${out.source}\n#include <sys/wait.h>\n#include <unistd.h>\n` +
        `int main(void) { if (${poke.name}(3) != 4) return 1; for (int x = 8; x >= -8; x -= 16) { pid_t p = fork(); ` +
        `if (p == 0) { ${poke.name}(x); _exit(0); } int st; waitpid(p, &st, 0); if (!WIFSIGNALED(st)) return 2; } return 0; }\n`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('decompile: x86-64 string moves (rep movsb, movsq) copy as the machine does and leave the pointers where it does', async (t) => {
  if (!hasGcc) return t.skip('gcc absent');
  const dir = mkdtempSync(join(tmpdir(), 'binlens-decompile-test-'));
  try {
    const { out } = await decompiledFrom(
      dir,
      '__attribute__((noinline)) char *copy_bytes(char *d, const char *s, unsigned long n) {\n' +
        '  __asm__ volatile("rep movsb" : "+D"(d), "+S"(s), "+c"(n) : : "memory"); return d; }\n' +
        '__attribute__((noinline)) const long *copy_word(long *d, const long *s) {\n' +
        '  __asm__ volatile("movsq" : "+D"(d), "+S"(s) : : "memory"); return s; }\n' +
        'int main(void) { return 0; }\n',
      '-O1',
      ['copy_bytes', 'copy_word'],
    );
    assert.deepEqual(
      out.functions.filter((f) => f.error).map((f) => f.error),
      [],
    );
    compiledAndRun(
      dir,
      `${out.source}\nint main(void) { char x[8] = "abcdefg", y[8] = {0}; long a = 5, b = 0;\n` +
        '  if ((char *)copy_bytes(y, x, 8) != y + 8 || y[3] != 100) return 1;\n' +
        '  if ((const long *)copy_word(&b, &a) != &a + 1 || b != 5) return 2; return 0; }\n',
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

const SWITCHES = `int sw(int x, int y) {
  switch (x) {
  case 0: return y + 1;
  case 1: return y * 3;
  case 2: y -= 7; break;
  case 3: case 4: return y ^ 5;
  case 6: return 99;
  default: return -1;
  }
  return y * y;
}
int loopsw(const char *s) {
  int n = 0;
  for (; *s; s++) {
    switch (*s) {
    case 'a': n += 1; break;
    case 'b': n += 2; break;
    case 'c': n += 3; continue;
    case 'd': return n;
    case 'e': n *= 2; break;
    case 'f': n -= 1; break;
    default: n += 10;
    }
    n++;
  }
  return n;
}
`;

for (const level of ['O0', 'O1', 'O2', 'O3'])
  test(`decompile: -${level} jump tables come out as switch statements (the index read at the jump, or from the local -O0 reloads it from), and compute the same`, async (t) => {
    if (!hasGcc) return t.skip('gcc absent');
    const dir = mkdtempSync(join(tmpdir(), 'binlens-decompile-test-'));
    try {
      writeFileSync(join(dir, 'f.c'), `${SWITCHES}int main(void) { return 0; }\n`);
      execFileSync('gcc', [`-${level}`, '-fno-inline', '-o', 'f', 'f.c'], { cwd: dir, stdio: 'ignore' });
      const { image, graph, decoders } = await recoverBinaryFunctions(readFileSync(join(dir, 'f')), {});
      const roots = ['sw', 'loopsw'].map((n) =>
        graph.functions.findIndex((f) => f.start === image.symbols.find((s) => s.name === n)!.vaddr),
      );
      const out = decompile(image, graph, decoders, roots);
      const sw = out.functions.find((f) => f.name === 'sw')!.text!;
      // -O0 reloads the index from its frame slot before the jump: the switch reads the local (here the
      // parameter, whose home the slot is), and the table read is written nowhere.
      assert.match(sw, /switch \([^\n]*\) \{\n(.*\n)*? *case 3:\n *case 4:\n/, sw);
      assert.doesNotMatch(sw, /\bt == /, 'no comparison chain of the target');
      compiledAndRun(
        dir,
        `${out.source}\n${SWITCHES.replace(/\bsw\b/g, 'ref_sw').replace(/\bloopsw\b/g, 'ref_loopsw')}\n` +
          'int main(void) {\n  for (int x = -2; x < 10; x++) for (int y = -3; y < 4; y++) if (sw(x, y) != ref_sw(x, y)) return 1;\n' +
          '  const char *in[] = {"", "abc", "cafe", "xyzd", "fffeed", "abcdefgh", "eeee"};\n' +
          // -O1 loads the table's base before the loop: function recovery, which looks for it next to the
          // jump, does not find the table, and the jump reads as a tail call (docs/decisions.md).
          (level === 'O1' ? '' : '  for (int i = 0; i < 7; i++) if (loopsw(in[i]) != ref_loopsw(in[i])) return 2;\n') +
          '  return 0;\n}\n',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

/** A branch after flags that a `test` sets on one path and a `cmp` on the other (no C compiler emits it so small). */
const MERGED_FLAGS = `	.intel_syntax noprefix
	.text
	.globl	merged
	.type	merged, @function
merged:
	test	edi, edi
	je	.L1
	cmp	esi, 5
.L1:
	jle	.Lneg
	mov	eax, 1
	ret
.Lneg:
	mov	eax, 0
	ret
	.globl	main
main:
	xor	eax, eax
	ret
	.section	.note.GNU-stack,"",@progbits
`;

test('decompile: a condition on flags merged from different operations is computed where each sets them', async (t) => {
  if (!hasGcc) return t.skip('gcc absent');
  const dir = mkdtempSync(join(tmpdir(), 'binlens-decompile-test-'));
  try {
    writeFileSync(join(dir, 'f.s'), MERGED_FLAGS);
    execFileSync('gcc', ['f.s', '-o', 'f'], { cwd: dir, stdio: 'ignore' });
    const { image, graph, decoders } = await recoverBinaryFunctions(readFileSync(join(dir, 'f')), {});
    const fi = graph.functions.findIndex((f) => f.start === image.symbols.find((s) => s.name === 'merged')!.vaddr);
    const out = decompile(image, graph, decoders, [fi]);
    assert.ok(out.functions[0]!.text, out.functions[0]!.error);
    writeFileSync(
      join(dir, 'check.c'),
      `${out.source}\nint main(void) { return merged(0, 9) == 0 && merged(1, 5) == 0 && merged(1, 6) == 1 && merged(-3, 9) == 1 ? 0 : 1; }\n`,
    );
    execFileSync('gcc', ['check.c', '-o', 'check'], { cwd: dir, stdio: 'pipe' });
    execFileSync('./check', { cwd: dir, stdio: 'pipe' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('decompile: a structure passed in memory and read 16 bytes at a time is passed as 16-byte values', async (t) => {
  if (!hasGcc) return t.skip('gcc absent');
  const dir = mkdtempSync(join(tmpdir(), 'binlens-decompile-test-'));
  try {
    writeFileSync(
      join(dir, 'f.c'),
      'struct big { long a, b, c, d; };\n' +
        '__attribute__((noinline)) void copy_out(struct big *out, struct big s) { *out = s; }\n' +
        'int main(void) { return 0; }\n',
    );
    execFileSync('gcc', ['-O2', 'f.c', '-o', 'f'], { cwd: dir, stdio: 'ignore' });
    const { image, graph, decoders } = await recoverBinaryFunctions(readFileSync(join(dir, 'f')), {});
    const fi = graph.functions.findIndex((f) => f.start === image.symbols.find((s) => s.name === 'copy_out')!.vaddr);
    const out = decompile(image, graph, decoders, [fi]);
    const text = out.functions[0]!.text!;
    assert.match(text, /^void copy_out\([^,]+\*a1, struct v128 a2, struct v128 a3\) \{$/m, text);
    writeFileSync(
      join(dir, 'check.c'),
      `${out.source}\nstruct big { long a, b, c, d; };\nint main(void) {\n` +
        '  struct big o = {0};\n  copy_out((void *)&o, (struct v128){1, 2}, (struct v128){3, 4});\n' +
        '  return o.a == 1 && o.b == 2 && o.c == 3 && o.d == 4 ? 0 : 1;\n}\n',
    );
    execFileSync('gcc', ['check.c', '-o', 'check'], { cwd: dir, stdio: 'pipe' });
    execFileSync('./check', { cwd: dir, stdio: 'pipe' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** SSE2 operations to a general register, into a vector and on two doubles, by intrinsics gcc compiles to them. */
const SSE_OPS = `#include <emmintrin.h>
#include <stdint.h>
int s_movemask(uint64_t lo, uint64_t hi) { return _mm_movemask_epi8(_mm_set_epi64x((long long)hi, (long long)lo)); }
int s_extract(uint64_t lo, uint64_t hi) { return _mm_extract_epi16(_mm_set_epi64x((long long)hi, (long long)lo), 5); }
uint64_t s_insert(uint64_t lo, uint64_t hi, int v) { return (uint64_t)_mm_cvtsi128_si64(_mm_insert_epi16(_mm_set_epi64x((long long)hi, (long long)lo), v, 2)); }
double s_sub(double a, double b, double c, double d) { __m128d x = _mm_sub_pd(_mm_set_pd(b, a), _mm_set_pd(d, c)); return _mm_cvtsd_f64(x) + 100 * _mm_cvtsd_f64(_mm_unpackhi_pd(x, x)); }
double s_cvt(int a, int b) { __m128d x = _mm_cvtepi32_pd(_mm_set_epi32(0, 0, b, a)); return _mm_cvtsd_f64(x) + 1000 * _mm_cvtsd_f64(_mm_unpackhi_pd(x, x)); }
uint64_t s_pack(uint64_t lo, uint64_t hi) { __m128i v = _mm_set_epi64x((long long)hi, (long long)lo); return (uint64_t)_mm_cvtsi128_si64(_mm_packus_epi16(v, v)); }
int s_cmplt(double a, double b) { return _mm_cvtsi128_si32(_mm_castpd_si128(_mm_cmplt_sd(_mm_set_sd(a), _mm_set_sd(b)))); }
uint64_t s_cvttpd(double a, double b) { return (uint64_t)_mm_cvtsi128_si64(_mm_cvttpd_epi32(_mm_set_pd(b, a))); }
uint64_t s_cvttps(const float *p) { return (uint64_t)_mm_cvtsi128_si64(_mm_cvttps_epi32(_mm_loadu_ps(p))); }
double s_min(double a, double b) { return _mm_cvtsd_f64(_mm_min_sd(_mm_set_sd(a), _mm_set_sd(b))); }
double s_max(double a, double b) { return _mm_cvtsd_f64(_mm_max_sd(_mm_set_sd(a), _mm_set_sd(b))); }
`;
const SSE_NAMES = [...SSE_OPS.matchAll(/ (s_\w+)\(/g)].map((m) => m[1]!);
const SSE_HARNESS = `
#include <stdio.h>
int main(void) {
  unsigned long long xs[] = {0, 1, 0x8000800080008000ull, 0x12345678ull, 0xdeadbeefcafef00dull, ~0ull, 0x00ff7fff0100ffffull};
  double ds[] = {0.0, -1.5, 2.25, 1e300, -0.0};
  for (int i = 0; i < 7; i++) {
    unsigned long long x = xs[i], y = xs[(i + 3) % 7];
    double a = ds[i % 5], b = ds[(i + 2) % 5];
    printf("%x %x %llx %g %g %llx %d\\n", s_movemask(x, y), s_extract(x, y), (unsigned long long)s_insert(x, y, (int)i * 4099),
      s_sub(a, b, b, a), s_cvt((int)x, (int)y), (unsigned long long)s_pack(x, y), s_cmplt(a, b));
    printf("%llx %llx %g %g\\n", (unsigned long long)s_cvttpd(a * 1e7, b - 0.75), (unsigned long long)s_cvttps((float[]){(float)a * 3e9f, (float)b, -7.9f, (float)i}),
      s_min(a, b), s_max(b, a));
  }
  return 0;
}
`;

test('decompile: SSE2 pmovmskb, pextrw, pinsrw, subpd, cvtdq2pd, packuswb, cmpsd, cvttpd2dq, cvttps2dq, minsd and maxsd compute what the code does', async (t) => {
  if (!hasGcc) return t.skip('gcc absent');
  const emitted = [
    'pmovmskb',
    'pextrw',
    'pinsrw',
    'subpd',
    'cvtdq2pd',
    'packuswb',
    'cmpltsd',
    'cvttpd2dq',
    'cvttps2dq',
    'minsd',
    'maxsd',
  ];
  await matchesNative(SSE_OPS, SSE_HARNESS, SSE_NAMES, 'gcc', emitted);
});

test('decompile: SSE2 pminub, pmaxub, pminsw, pmaxsw and imul overflow (jo/seto) compute what the code does', async (t) => {
  if (!hasGcc) return t.skip('gcc absent');
  const ops =
    '#include <emmintrin.h>\n#include <stdint.h>\n' +
    'uint64_t s_minmax(uint64_t lo, uint64_t hi) { __m128i a = _mm_set_epi64x((long long)hi, (long long)lo), b = _mm_set_epi64x((long long)lo, (long long)~hi); ' +
    'return (uint64_t)_mm_cvtsi128_si64(_mm_min_epu8(a, b)) ^ (uint64_t)_mm_cvtsi128_si64(_mm_max_epu8(a, b)) << 1 ^ ' +
    '(uint64_t)_mm_cvtsi128_si64(_mm_min_epi16(a, b)) << 2 ^ (uint64_t)_mm_cvtsi128_si64(_mm_max_epi16(a, b)) << 3; }\n' +
    'long s_mul64(long a, long b) { long r; return __builtin_mul_overflow(a, b, &r) ? -1 : r; }\n' +
    'int s_mul32(int a, int b) { int r; return __builtin_mul_overflow(a, b, &r); }\n';
  const harness =
    '#include <stdio.h>\n#include <stdint.h>\nint main(void) {\n' +
    '  long xs[] = {0, 1, -1, 3, 1L << 31, 1L << 32, INT64_MIN, INT64_MAX, -3037000500L, 3037000499L, 0x00ff7fff0100ffffL};\n' +
    '  for (int i = 0; i < 11; i++) for (int j = 0; j < 11; j++)\n' +
    '    printf("%llx %ld %d\\n", (unsigned long long)s_minmax((uint64_t)xs[i], (uint64_t)xs[j]), s_mul64(xs[i], xs[j]), s_mul32((int)xs[i], (int)(xs[j] >> 1)));\n' +
    '  return 0;\n}\n';
  await matchesNative(ops, harness, ['s_minmax', 's_mul64', 's_mul32'], 'gcc', [
    'pminub',
    'pmaxub',
    'pminsw',
    'pmaxsw',
    '(jo|seto)',
  ]);
});

/** long double arithmetic, compares, conversions and truncation: x87 code, whose registers are a stack. */
const X87_OPS = `double x_poly(double a, double b) { long double x = a, y = b; return (double)(x * x - y / 3 + 1.5L); }
double x_loop(int n, double a) { long double s = a; for (int i = 0; i < n; i++) s = s * 1.0001L + i; return (double)s; }
long x_trunc(int k, double a) { long double v = (long double)a * 3 - k; return (long)v; }
int x_cmp(double a, double b) { long double x = a, y = b; return x < y ? -1 : x > y; }
double x_abs(double a, double b) { long double v = (long double)a - b; return (double)(v < 0 ? -v : v) + (double)__builtin_fabsl(v * 2); }
float x_conv(long n, unsigned char c, float f) { long double v = f; v = v / (n | 1) - c; return (float)(v > 2 ? v : -v); }
`;
const X87_HARNESS = `
#include <stdio.h>
int main(void) {
  double ds[] = {0.0, -1.5, 2.25, 1e300, -0.0, 7.0 / 3, -123456.789, 4.5e15};
  for (int i = 0; i < 8; i++)
    for (int j = 0; j < 8; j++) {
      double a = ds[i], b = ds[j];
      printf("%.17g %.17g %ld %d %.17g %.9g\\n", x_poly(a, b), x_loop(j * 3, a), x_trunc(j, a / 1e290), x_cmp(a, b), x_abs(a, b), x_conv((long)(b / 1e290), (unsigned char)(i * 37), (float)a));
    }
  return 0;
}
`;

const X87_EMITTED: Record<string, string[]> = {
  '-O0': ['fldt', 'fstpt', 'fcomip', 'fistpll', 'fldcw', 'fsubrp', 'fdivp'],
  '-O2': ['fldt', 'fxch', 'fcomi', 'fistpll', 'fldcw', 'fdivrl'],
};
for (const [level, emitted] of Object.entries(X87_EMITTED))
  test(`decompile: long double (x87: fld/fild, arithmetic, fxch, fcomi(p), fistp with fldcw, fstp) built by gcc ${level} computes what the code does`, async (t) => {
    if (!hasGcc) return t.skip('gcc absent');
    const names = [...X87_OPS.matchAll(/ (x_\w+)\(/g)].map((m) => m[1]!);
    await matchesNative(X87_OPS, X87_HARNESS, names, 'gcc', emitted, level);
  });

test('decompile: fistp without fldcw rounds to nearest, ties to even (llrintl inlined under -fno-math-errno)', async (t) => {
  if (!hasGcc) return t.skip('gcc absent');
  const ops = 'long x_rint(double a) { return __builtin_llrintl((long double)a * 3); }\n';
  const harness =
    '#include <stdio.h>\nint main(void) {\n  double ds[] = {0.5 / 3, 1.5 / 3, 2.5 / 3, -2.5 / 3, 7.0 / 6, -7.0 / 6, 1e15 / 3, 123.456};\n' +
    '  for (int i = 0; i < 8; i++) printf("%ld\\n", x_rint(ds[i]));\n  return 0;\n}\n';
  await matchesNative(ops, harness, ['x_rint'], 'gcc', ['fistpll'], '-O2', ['-fno-math-errno']);
});

/** String instructions without a repeat prefix, loop, enter and cbw, as hand-written assembly does them. */
const STRING_OPS = `#include <stdint.h>
__asm__(".text\\n"
  ".globl s_stos\\n.type s_stos,@function\\ns_stos: mov %esi, %eax\\n stosw\\n stosb\\n mov %rdi, %rax\\n ret\\n"
  ".globl s_scas\\n.type s_scas,@function\\ns_scas: mov %esi, %eax\\n scasl\\n sete %al\\n movzbl %al, %eax\\n ret\\n"
  ".globl s_lods\\n.type s_lods,@function\\ns_lods: mov %rdi, %rsi\\n xor %eax, %eax\\n lodsb\\n mov %eax, %edx\\n lodsb\\n add %edx, %eax\\n ret\\n"
  ".globl s_loop\\n.type s_loop,@function\\ns_loop: mov %edi, %ecx\\n xor %eax, %eax\\n test %ecx, %ecx\\n je 1f\\n0: add %ecx, %eax\\n loop 0b\\n1: ret\\n"
  ".globl s_enter\\n.type s_enter,@function\\ns_enter: enter $16, $0\\n mov %edi, -4(%rbp)\\n mov -4(%rbp), %eax\\n add %eax, %eax\\n leave\\n ret\\n"
  ".globl s_cbw\\n.type s_cbw,@function\\ns_cbw: mov %edi, %eax\\n cbtw\\n movswl %ax, %eax\\n ret\\n");
uint8_t *s_stos(uint8_t *p, int v);
int s_scas(const uint32_t *p, int v);
int s_lods(const uint8_t *p);
int s_loop(int n);
int s_enter(int a);
int s_cbw(int a);
`;
const STRING_HARNESS = `
#include <stdio.h>
int main(void) {
  uint8_t buf[8] = {0};
  uint32_t w = 0x12345678u;
  long moved = (long)((uintptr_t)s_stos((void *)buf, 0x4142) - (uintptr_t)buf);
  printf("%ld %x %x %x %x\\n", moved, buf[0], buf[1], buf[2], buf[3]);
  printf("%d %d %d %d %d %d %d\\n", s_scas((void *)&w, 0x12345678), s_scas((void *)&w, 7), s_lods((void *)"\\x90\\x05"), s_loop(100), s_loop(0), s_enter(21), s_cbw(0x1f0));
  return 0;
}
`;

test('decompile: stos, scas and lods without rep, loop, enter and cbw compute what the code does', async (t) => {
  if (!hasGcc) return t.skip('gcc absent');
  const names = ['s_stos', 's_scas', 's_lods', 's_loop', 's_enter', 's_cbw'];
  await matchesNative(STRING_OPS, STRING_HARNESS, names, 'gcc', ['stos', 'scas', 'lods', 'loop', 'enter', 'cbtw']);
});

test('decompile: SSE2 shufpd (gcc emits it for the intrinsic at -O0) computes what the code does', async (t) => {
  if (!hasGcc) return t.skip('gcc absent');
  const ops =
    '#include <emmintrin.h>\n' +
    'double s_shuffle(double a, double b, double c, double d) { __m128d x = _mm_shuffle_pd(_mm_set_pd(b, a), _mm_set_pd(d, c), 1); ' +
    'return _mm_cvtsd_f64(x) * 10 + _mm_cvtsd_f64(_mm_unpackhi_pd(x, x)); }\n';
  const harness =
    '#include <stdio.h>\nint main(void) { printf("%g %g\\n", s_shuffle(1, 2, 3, 4), s_shuffle(-0.5, 7, 1e9, 3)); return 0; }\n';
  await matchesNative(ops, harness, ['s_shuffle'], 'gcc', ['shufpd'], '-O0');
});
