// The decompiler writes what the function's data types say: parameter and local names and types from
// DWARF (gcc -g), structures laid out at their members' offsets, members read through typed pointers
// (`it->weight`, a walked list's `->next`) — and the C still computes what the machine code does.
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
      const out = await analyzeDecompilation(readFileSync(join(dir, 'f')), {}, ['total', 'first_id']);
      const text = out.functions.map((f) => f.text ?? f.error).join('\n');
      assert.match(text, /^int64_t total\(struct item \*it, int n\) \{$/m, text);
      assert.match(text, /^int32_t first_id\(const struct item \*it\) \{$/m, text);
      assert.ok(out.source.includes(LAYOUT), out.source);
      if (level === 'O2') {
        // The loop walks the list: the pointer keeps its structure through the loop's phi.
        for (const member of ['flag', 'weight', 'next']) assert.match(text, new RegExp(`->${member}\\b`), text);
        assert.match(text, /\bit->id\b/, text);
      } else assert.match(text, /^ {2}int64_t sum = 0;$/m, 'a DWARF local, named and typed');
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
