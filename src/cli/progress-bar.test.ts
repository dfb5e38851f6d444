import assert from 'node:assert/strict';
import { test } from 'node:test';
import { renderProgress, type ProgressState } from './progress-bar.js';

const state = (over: Partial<ProgressState>): ProgressState => ({
  stage: 'recover',
  fraction: 0.15,
  elapsedMs: 3400,
  tick: 0,
  ...over,
});

const cases: { name: string; s: ProgressState; width: number; want: string }[] = [
  {
    name: '15% in an 80-column terminal: the widest bar',
    s: state({}),
    width: 80,
    want: `[${'#'.repeat(6)}${'-'.repeat(34)}]   15%  recover  | 3.4 s`,
  },
  {
    name: 'the spinner turns with each redraw',
    s: state({ tick: 1 }),
    width: 80,
    want: `[${'#'.repeat(6)}${'-'.repeat(34)}]   15%  recover  / 3.4 s`,
  },
  {
    name: 'a narrower terminal gets a shorter bar',
    s: state({ fraction: 0.5 }),
    width: 45,
    want: `[${'#'.repeat(9)}${'-'.repeat(9)}]   50%  recover  | 3.4 s`,
  },
  {
    name: 'too narrow for a bar: the text alone',
    s: state({ fraction: 1 }),
    width: 30,
    want: '100%  recover  | 3.4 s',
  },
  {
    name: 'fractions out of range are clamped',
    s: state({ fraction: 1.5 }),
    width: 80,
    want: `[${'#'.repeat(40)}]  100%  recover  | 3.4 s`,
  },
];
for (const c of cases) {
  test(`renderProgress: ${c.name}`, () => {
    const line = renderProgress(c.s, c.width);
    assert.equal(line, c.want);
    assert.ok(line.length < c.width, 'never wraps onto a second line');
  });
}
