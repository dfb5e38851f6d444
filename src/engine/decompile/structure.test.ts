// Structuring on small flow graphs: each shape comes out as the construct a person would write, and flow no
// construct expresses (two ways into one loop) keeps a goto with every block written exactly once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { negate, printC, simplify, type CStmt } from './c-tree.js';
import { structure, type BlockExit } from './structure.js';

/**
 * Blocks by index: their successors and how they leave; block i's body is `bi;` (none when `quiet`), a
 * return `return i;`.
 */
type Shape = ((
  | { to: number[] }
  | { branch: string; to: [number, number] }
  | { table: string; to: number[]; values: number[][] }
  | { ret: true }
) & { quiet?: true })[];

function decompileShape(shape: Shape): string {
  const succ = shape.map((b) => ('to' in b ? b.to : []));
  const pred = shape.map((_, i) => succ.flatMap((s, p) => (s.includes(i) ? [p] : [])));
  const text = printC(
    simplify(
      structure({
        count: shape.length,
        entry: 0,
        succ: (b) => succ[b]!,
        pred: (b) => pred[b]!,
        body: (b) =>
          'ret' in shape[b]!
            ? [{ k: 'line', text: `return ${b};`, at: [], ends: true }]
            : shape[b]!.quiet
              ? []
              : [{ k: 'line', text: `b${b};`, at: [] }],
        exit: (b): BlockExit => {
          const x = shape[b]!;
          if ('ret' in x) return { k: 'end' };
          if ('table' in x)
            return {
              k: 'table',
              value: x.table,
              at: [],
              cases: x.to.map((to, i) => ({ values: x.values[i]!, to })),
            };
          return 'branch' in x ? { k: 'branch', cond: x.branch, at: [], taken: x.to[0], fall: x.to[1] } : { k: 'next' };
        },
        label: (b) => `L${b}`,
      }).body,
    ),
    0,
  );
  return text.lines.join('\n');
}

test('structure: a loop tested at its head is a while loop', () => {
  const shape: Shape = [{ to: [1] }, { branch: 'i < n', to: [2, 3] }, { to: [1] }, { ret: true }];
  assert.equal(
    decompileShape(shape),
    ['b0;', 'for (;;) {', '  b1;', '  if (i >= n) {', '    break;', '  }', '  b2;', '}', 'return 3;'].join('\n'),
  );
});

test('structure: a loop whose head does nothing but test is `while (cond)`; one tested at its end is do-while', () => {
  const shape: Shape = [{ to: [1] }, { branch: 'i < n', to: [2, 3], quiet: true }, { to: [1] }, { ret: true }];
  assert.equal(decompileShape(shape), ['b0;', 'while (i < n) {', '  b2;', '}', 'return 3;'].join('\n'));
  const doWhile: Shape = [{ to: [1] }, { branch: 'more', to: [1, 2] }, { ret: true }];
  assert.equal(decompileShape(doWhile), ['b0;', 'do {', '  b1;', '} while (more);', 'return 2;'].join('\n'));
});

test('structure: a diamond is if/else, a guard is an early return without else', () => {
  const diamond: Shape = [{ branch: 'c', to: [1, 2] }, { to: [3] }, { to: [3] }, { ret: true }];
  assert.equal(decompileShape(diamond), ['b0;', 'if (c) {', '  b1;', '} else {', '  b2;', '}', 'return 3;'].join('\n'));
  const guard: Shape = [{ branch: 'p == 0', to: [1, 2] }, { ret: true }, { to: [3] }, { ret: true }];
  assert.equal(decompileShape(guard), ['b0;', 'if (p == 0) {', '  return 1;', '}', 'b2;', 'return 3;'].join('\n'));
  const thenOnly: Shape = [{ branch: 'c', to: [2, 1] }, { to: [2] }, { ret: true }];
  assert.equal(decompileShape(thenOnly), ['b0;', 'if (!c) {', '  b1;', '}', 'return 2;'].join('\n'));
});

test('structure: a loop left early from its middle breaks out of it', () => {
  // 1: head (test), 2: body with an early exit to 4, 3: latch back to 1, 4: after the loop.
  const shape: Shape = [
    { to: [1] },
    { branch: 'i < n', to: [2, 4] },
    { branch: 'found', to: [4, 3] },
    { to: [1] },
    { ret: true },
  ];
  const text = decompileShape(shape);
  assert.doesNotMatch(text, /goto/);
  assert.match(text, /if \(found\) \{\n {4}break;\n {2}\}/);
});

test('structure: two ways into one cycle (irreducible) keep a goto, and every block is written once', () => {
  const shape: Shape = [{ branch: 'c', to: [1, 2] }, { branch: 'd', to: [2, 3] }, { to: [1] }, { ret: true }];
  const text = decompileShape(shape);
  assert.match(text, /goto L[12];/);
  for (const b of ['b0;', 'b1;', 'b2;', 'return 3;']) assert.equal(text.split(b).length, 2, `${b} once in:\n${text}`);
});

test('structure: a join no construct places (three ways into one loop head, one from an inner loop) needs no goto, each block once', () => {
  // 0: outer loop head; 1: an inner loop (1 → 1) reached from 0, 3 and 5, leaving for 0; 2, 3, 4: a chain
  // that goes round (to 0) or into 1; 5: a loop of its own (5 → 5) that leaves for 1.
  const shape: Shape = [
    { branch: 'c0', to: [1, 2] },
    { branch: 'c1', to: [1, 0] },
    { branch: 'c2', to: [3, 0] },
    { branch: 'c3', to: [4, 1] },
    { branch: 'c4', to: [0, 5] },
    { branch: 'c5', to: [5, 1], quiet: true },
  ];
  const text = decompileShape(shape);
  assert.doesNotMatch(text, /goto/, text);
  assert.match(text, /to_L1 = true;/, text);
  for (const b of ['b0;', 'b1;', 'b2;', 'b3;', 'b4;']) assert.equal(text.split(b).length, 2, `${b} once in:\n${text}`);
});

test('negate: flips one comparison, drops a negation, else wraps', () => {
  assert.equal(negate('a == b'), 'a != b');
  assert.equal(negate('(x < 3u)'), 'x >= 3u');
  assert.equal(negate('(uint32_t)(r) <= 0'), '(uint32_t)(r) > 0');
  assert.equal(negate('a << 2 < b'), 'a << 2 >= b');
  assert.equal(negate('!(p)'), 'p');
  assert.equal(negate('flag'), '!flag');
  assert.equal(negate('!flag'), 'flag');
  // A looser operator at the top: flipping one comparison would not negate the whole.
  assert.equal(negate('a < b & c'), '!(a < b & c)');
  assert.equal(negate('a == 1 || b == 2'), '!(a == 1 || b == 2)');
  assert.equal(negate('f(a, b)'), '!(f(a, b))');
});

test('structure: a switch in a loop — cases that go round continue, one that leaves the loop breaks the switch and then the loop', () => {
  // 1: loop head (test), 2: switch, 3: case 0 (then 5), 4: cases 1-2 (back to the head), 6: case 3 (leaves
  // the loop for 7), 5: back to the head, 7: after the loop.
  const shape: Shape = [
    { to: [1] },
    { branch: 'more', to: [2, 7] },
    { table: 'c', to: [3, 4, 6], values: [[0], [1, 2], [3]] },
    { to: [5] },
    { to: [1] },
    { to: [1] },
    { to: [7] },
    { ret: true },
  ];
  assert.equal(
    decompileShape(shape),
    [
      'b0;',
      'for (;;) {',
      '  b1;',
      '  if (!more) {',
      '    break;',
      '  }',
      '  b2;',
      '  switch (c) {',
      '  case 0:',
      '    b3;',
      '    b5;',
      '    continue;',
      '  case 1:',
      '  case 2:',
      '    b4;',
      '    continue;',
      '  case 3:',
      '    b6;',
      '    break;',
      '  default:',
      '    abort();',
      '  }',
      '  break;',
      '}',
      'return 7;',
    ].join('\n'),
  );
});

test('structure: a branch into a block that only branches again to a shared target is one condition with && or ||', () => {
  // if (a) goto 3; else if (b) goto 3; else goto 4  →  if (a || b)
  const or: Shape = [
    { branch: 'a', to: [3, 1] },
    { branch: 'b', to: [3, 2], quiet: true },
    { ret: true },
    { ret: true },
  ];
  assert.equal(decompileShape(or), ['b0;', 'if ((a) || (b)) {', '  return 3;', '}', 'return 2;'].join('\n'));
  // if (a) { if (b) goto 2; else goto 3 } else goto 3  →  if (a && b)
  const and: Shape = [
    { branch: 'a', to: [1, 3] },
    { branch: 'b', to: [2, 3], quiet: true },
    { ret: true },
    { ret: true },
  ];
  assert.equal(decompileShape(and), ['b0;', 'if (!((a) && (b))) {', '  return 3;', '}', 'return 2;'].join('\n'));
  // The inner block reached from elsewhere too stays a block of its own.
  const shared: Shape = [
    { branch: 'a', to: [3, 1] },
    { branch: 'b', to: [3, 2], quiet: true },
    { to: [1] },
    { ret: true },
  ];
  assert.doesNotMatch(decompileShape(shared), /\|\|/);
});

test('simplify: an assignment, then a while loop ending in an assignment of the same variable its test reads, is a for loop (not when the body continues) whose header comes from all three', () => {
  const assign = (v: string, e: string, at: number): CStmt => ({
    k: 'line',
    text: `${v} = ${e};`,
    at: [at],
    assigns: v,
  });
  const loop = (body: CStmt[]): CStmt[] => [
    assign('i', '0', 1),
    {
      k: 'loop',
      cond: null,
      at: [],
      post: false,
      body: [{ k: 'if', cond: 'i >= n', at: [2], then: [{ k: 'break' }], else: [] }, ...body],
    },
  ];
  assert.deepEqual(printC(simplify(loop([{ k: 'line', text: 's += i;', at: [3] }, assign('i', 'i + 1', 4)])), 0), {
    lines: ['for (i = 0; i < n; i = i + 1) {', '  s += i;', '}'],
    at: [[1, 2, 4], [3], []],
  });
  const continuing = loop([
    { k: 'if', cond: 'skip', at: [], then: [{ k: 'continue' }], else: [] },
    { k: 'line', text: 's += i;', at: [3] },
    assign('i', 'i + 1', 4),
  ]);
  const printed = printC(simplify(continuing), 0);
  assert.match(printed.lines.join('\n'), /^i = 0;\nwhile \(i < n\) \{/);
  assert.deepEqual(printed.at.slice(0, 2), [[1], [2]], 'the while stands for the exit test');
});

test('structure: a short block that returns is written again where a goto would lead to it (the shared epilogue)', () => {
  // 0: if (a) 1 else 4; 1: if (b) 2 else 5; 2 → 3; 3 returns; 4 → 3; 5: something else, then returns.
  // Without the copy, 3 is placed once and the other way to it is a goto.
  const shape: Shape = [
    { branch: 'a', to: [1, 4] },
    { branch: 'b', to: [2, 5] },
    { to: [3] },
    { ret: true },
    { to: [3] },
    { to: [6] },
    { ret: true },
  ];
  const text = decompileShape(shape);
  assert.doesNotMatch(text, /goto/, text);
  assert.equal(text.match(/return 3;/g)?.length, 2, text);
});

test('structure: a short block two branches share is written in each, going on to where both continue', () => {
  // 0: if (a) 1 else 4; 1: if (b) 2 else 3; 2 → 5; 3 → 5; 4 → 3; 5 returns. 3 is reached from 1 and 4.
  const shape: Shape = [
    { branch: 'a', to: [1, 4] },
    { branch: 'b', to: [2, 3] },
    { to: [5] },
    { to: [5] },
    { to: [3] },
    { ret: true },
  ];
  const text = decompileShape(shape);
  assert.doesNotMatch(text, /goto/, text);
  assert.equal(text.match(/b3;/g)?.length, 2, text);
});

test('structure: a second test after a statement joins the first with || and the comma operator', () => {
  // 0: if (a) 3 else 1; 1: b1; if (c) 3 else 2; 2 and 3 return.
  const shape: Shape = [{ branch: 'a', to: [3, 1] }, { branch: 'c', to: [3, 2] }, { ret: true }, { ret: true }];
  const text = decompileShape(shape);
  assert.match(text, /\(a\) \|\| \(b1, c\)/, text);
  assert.equal(text.match(/b1/g)?.length, 1, text);
  assert.doesNotMatch(text, /goto/, text);
});
