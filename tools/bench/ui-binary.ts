// The binary bench:ui analyses: 100 000 small named functions (the functions table's 10^5 rows) and `big`,
// one function of ~500 basic blocks (the control-flow graph to lay out). Assembly for the many (a C
// compiler takes minutes over 10^5 functions, the assembler a second), C at -O0 for `big`, whose every
// `if`/`else` stays three blocks. Built with the machine's gcc into dist/bench-ui, once.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const MANY = 100_000;
/** `if`/`else` pairs in `big`: three blocks each, and a few around them. */
const BRANCHES = 166;

export function uiBenchBinary(): string {
  const dir = join('dist', 'bench-ui');
  const out = join(dir, `functions-${MANY}`);
  if (existsSync(out)) return out;
  mkdirSync(dir, { recursive: true });
  const asm = ['.intel_syntax noprefix', '.text'];
  for (let i = 0; i < MANY; i++)
    asm.push(`.globl f${i}`, `.type f${i},@function`, `f${i}:`, ` lea eax,[rdi+${i}]`, ' ret', `.size f${i},.-f${i}`);
  // Referenced from a table, so each is a function the analysis finds and not dead bytes.
  asm.push('.section .data.rel.ro,"aw"', '.globl table', 'table:');
  for (let i = 0; i < MANY; i++) asm.push(` .quad f${i}`);
  asm.push('.section .note.GNU-stack,"",@progbits', '');
  writeFileSync(join(dir, 'many.s'), asm.join('\n'));
  const c = ['extern long (*table[])(long);', 'int big(int x) {', '  int r = 0;'];
  for (let i = 0; i < BRANCHES; i++) c.push(`  if (x > ${i}) r += x * ${i}; else r -= ${i};`);
  c.push('  return r;', '}', 'int main(int argc, char **argv) { return big(argc) + (int)table[argc](argc); }', '');
  writeFileSync(join(dir, 'big.c'), c.join('\n'));
  const gcc = spawnSync('gcc', ['-O0', '-no-pie', '-o', out, join(dir, 'big.c'), join(dir, 'many.s')], {
    encoding: 'utf8',
  });
  if (gcc.status !== 0) throw new Error(`gcc failed (the benchmark needs gcc): ${gcc.stderr ?? gcc.error}`);
  return out;
}
