import assert from 'node:assert/strict';
import { test } from 'node:test';
import { StageClock } from './stage-clock.js';

/** A clock that reads the times given, one per call. */
const clockOver = (...times: number[]) => new StageClock(() => times.shift() ?? NaN);

test('StageClock: a stage lasts until the next begins; the last until stop', () => {
  const clock = clockOver(0, 5, 5, 105, 105, 130);
  clock.enter('identify');
  clock.enter('recover');
  clock.enter('names');
  clock.stop();
  assert.deepEqual(clock.stages(), [
    { stage: 'identify', ms: 5 },
    { stage: 'recover', ms: 100 },
    { stage: 'names', ms: 25 },
  ]);
});

test('StageClock: a repeated report extends the stage; stop twice ends it once', () => {
  const clock = clockOver(0, 40);
  clock.enter('recover');
  clock.enter('recover');
  clock.stop();
  clock.stop();
  assert.deepEqual(clock.stages(), [{ stage: 'recover', ms: 40 }]);
});
