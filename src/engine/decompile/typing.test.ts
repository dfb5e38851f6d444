// The decompiler writes what the function's data types say: parameter and local names and types from
// DWARF (gcc -g), structures laid out at their members' offsets, members and elements read through typed
// pointers (`it->weight`, a walked list's `->next`, `d[2]`, `*s`), -O0's parameter slots read as the
// parameters — and the C still computes what the machine code does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hasCommand } from '../../../test/helpers/commands.js';
import { analyzeDecompilation } from '../pipeline.js';
import type { FunctionTypesRecord } from '../../shared/type-records.js';

const hasGcc = hasCommand('gcc');

const LIST = `#include <stdint.h>
#include <stddef.h>
struct item { int32_t id; uint8_t flag; int64_t weight; struct item *next; };
int64_t total(struct item *it, int n) {
  int64_t sum = 0;
  for (int i = 0; i < n && it; i++) { if (it->flag) sum += it->weight; it = it->next; }
  return sum;
}
int32_t first_id(const struct item *it) { return it ? it->id : -1; }
int32_t add_all(const int32_t *v, int n) { int32_t s = 0; for (int i = 0; i < n; i++) s += v[i]; return s; }
size_t len(const char *s) { size_t n = 0; while (s[n]) n++; return n; }
void fill(uint16_t *d, int n, uint16_t x) { for (int i = 0; i < n; i++) d[i] = x + i; d[0] = 7; d[2] = 9; }
int main(void) { return 0; }
`;

const CHECK = `
#include <assert.h>
// Designated: the decompiled layout has padding members of its own.
struct item c = {.id = 3, .flag = 1, .weight = 30}, b = {.id = 2, .weight = 20, .next = &c},
            a = {.id = 1, .flag = 1, .weight = 10, .next = &b};
int main(void) {
  assert(total(&a, 3) == 40 && total(&a, 1) == 10 && total(&a, 0) == 0 && total(0, 5) == 0);
  assert(first_id(&b) == 2 && first_id(0) == -1);
  int32_t v[] = {1, -2, 30};
  uint16_t d[4] = {0};
  fill(d, 4, 100);
  assert(add_all(v, 3) == 29 && add_all(v, 0) == 0 && len("hello") == 5 && len("") == 0);
  assert(d[0] == 7 && d[1] == 101 && d[2] == 9 && d[3] == 103);
  return 0;
}
`;

const LAYOUT =
  'struct item {\n  int32_t id;\n  uint8_t flag;\n  uint8_t bl_pad_5[3];\n  int64_t weight;\n  struct item *next;\n};';

for (const level of ['O0', 'O2'])
  test(`decompile -${level} -g: DWARF's names and types, structures by member, and the same results`, async (t) => {
    if (!hasGcc) return t.skip('gcc absent');
    const dir = mkdtempSync(join(tmpdir(), 'binlens-typing-'));
    try {
      writeFileSync(join(dir, 'f.c'), LIST);
      execFileSync('gcc', [`-${level}`, '-g', '-fno-inline', '-o', 'f', 'f.c'], { cwd: dir, stdio: 'ignore' });
      const out = await analyzeDecompilation(readFileSync(join(dir, 'f')), {}, [
        'total',
        'first_id',
        'add_all',
        'len',
        'fill',
      ]);
      const text = out.functions.map((f) => f.text ?? f.error).join('\n');
      assert.match(text, /^int64_t total\(struct item \*it, int n\) \{$/m, text);
      assert.match(text, /^int32_t first_id\(const struct item \*it\) \{$/m, text);
      assert.ok(out.source.includes(LAYOUT), out.source);
      if (level === 'O2') {
        // The loop walks the list: the pointer keeps its structure through the loop's phi.
        for (const member of ['flag', 'weight', 'next']) assert.match(text, new RegExp(`->${member}\\b`), text);
        assert.match(text, /\bit->id\b/, text);
        assert.match(text, /\bd\[2\] = /, text);
        assert.match(text, /\*s\b/, text);
        assert.match(text, /\*\(\(const int32_t \*\)\(uintptr_t\)\w+\)/, 'a pointer walked in a loop keeps its type');
      } else {
        assert.match(text, /^ {2}int64_t sum = 0;$/m, 'a DWARF local, named and typed');
        // total's `it` is reassigned: its slot is a local of its type; add_all's `v` and `n` are only read.
        assert.match(text, /^ {2}struct item \*\w+ = 0;$/m, text);
        assert.match(text, /->next\b/, text);
        const sum = out.functions.find((f) => f.name === 'add_all')!.text!;
        assert.doesNotMatch(sum, /local_/, sum);
        assert.match(sum, /\(int32_t\)i < \(int32_t\)n\b/, sum);
      }
      writeFileSync(join(dir, 'check.c'), `${out.source}\n${CHECK}`);
      execFileSync('gcc', ['check.c', '-o', 'check'], { cwd: dir, stdio: 'pipe' });
      execFileSync('timeout', ['10', './check'], { cwd: dir, stdio: 'pipe' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

test('decompile: given data types that do not fit the code or C are not used (names still are)', async (t) => {
  if (!hasGcc) return t.skip('gcc absent');
  const dir = mkdtempSync(join(tmpdir(), 'binlens-typing-'));
  try {
    writeFileSync(join(dir, 'f.c'), LIST);
    execFileSync('gcc', ['-O2', '-fno-inline', '-o', 'f', 'f.c'], { cwd: dir, stdio: 'ignore' });
    const bytes = readFileSync(join(dir, 'f'));
    const plain = await analyzeDecompilation(bytes, {}, ['first_id']);
    const address = plain.functions.find((f) => f.name === 'first_id')!.address;
    // A float where the code passes a pointer, a name C reserves, a member that straddles another.
    const edited: FunctionTypesRecord = {
      vaddr: address,
      size: 0,
      name: 'first_id',
      declaration: '',
      returnType: 'double',
      args: [{ name: 'while', type: 'double', size: 8, offset: 0 }],
      variadic: false,
      convention: 'sysv',
      stackVars: [],
      deps: [],
      source: 'user',
    };
    const out = await analyzeDecompilation(bytes, {}, ['first_id'], undefined, undefined, new Map([[address, edited]]));
    const text = out.functions[0]!.text!;
    assert.match(text, /^int32_t first_id\(void \*a1\) \{$/m, text);
    const named = { ...edited, returnType: 'int', args: [{ name: 'node', type: 'struct odd *', size: 8, offset: 0 }] };
    named.deps = [
      {
        kind: 'struct',
        name: 'odd',
        size: 8,
        members: [
          { name: 'whole', type: 'int64_t', size: 8, offset: 0 },
          { name: 'half', type: 'int32_t', size: 4, offset: 2 },
        ],
      },
    ];
    const again = await analyzeDecompilation(
      bytes,
      {},
      ['first_id'],
      undefined,
      undefined,
      new Map([[address, named]]),
    );
    const c = again.functions[0]!.text!;
    assert.match(c, /^int first_id\(struct odd \*node\) \{$/m, c);
    assert.doesNotMatch(c, /->half/, 'a member at an offset its type cannot sit at is not laid out');
    writeFileSync(join(dir, 'check.c'), `${again.source}\nint main(void) { return first_id(0) == -1 ? 0 : 1; }\n`);
    execFileSync('gcc', ['check.c', '-o', 'check'], { cwd: dir, stdio: 'pipe' });
    execFileSync('timeout', ['10', './check'], { cwd: dir, stdio: 'pipe' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
