// The hammering watch: a loop of one API from one place is recorded once, at the threshold, and its calls
// stop counting; a call that did something, or a call from elsewhere, starts the count over.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { EmulationEvent } from './events.js';
import { HAMMERING, HammerWatch } from './hammering.js';

const event = (): EmulationEvent => ({
  seq: 0,
  pid: 1000,
  kind: 'api-hammering',
  api: 'Sleep',
  site: 0x401000,
  detail: {},
});

test('a loop is recorded once at the threshold, its count kept, its calls then free', () => {
  const watch = new HammerWatch();
  const made: EmulationEvent[] = [];
  const record = () => {
    made.push(event());
    return made.at(-1)!;
  };
  const counted = Array.from({ length: HAMMERING + 500 }, () => watch.counts('Sleep', 0x401000, record));
  assert.equal(counted.filter(Boolean).length, HAMMERING - 1);
  assert.equal(made.length, 1);
  assert.equal(made[0]!.detail.count, HAMMERING + 500);
});

test('a call from another place, or one that did something, starts the count over', () => {
  const watch = new HammerWatch();
  const record = () => event();
  for (let i = 0; i < HAMMERING - 1; i++) assert.ok(watch.counts('ReadFile', 0x401000, record));
  watch.reset();
  assert.ok(watch.counts('ReadFile', 0x401000, record));
  for (let i = 0; i < HAMMERING - 2; i++) watch.counts('ReadFile', 0x401000, record);
  assert.ok(watch.counts('ReadFile', 0x402000, record));
  // A system that keeps no event for the place (the C library's own work) still stops counting the loop.
  for (let i = 0; i < HAMMERING; i++) watch.counts('getppid', 0x500000, () => null);
  assert.equal(
    watch.counts('getppid', 0x500000, () => null),
    false,
  );
});
