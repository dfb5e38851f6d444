import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MODEL_NAMES } from '../contracts/models.js';
import type { Architecture, Platform } from '../contracts/result.js';
import { pickModel } from './models.js';

const cases: [Architecture, Platform, string | null][] = [
  ['x86_64', 'linux', 'binnet-0.7-x86-64-linux'],
  ['x86_64', 'windows', 'binnet-0.7-x86-64-windows'],
  ['x86_64', 'android', 'binnet-0.7-x86-64-android'],
  ['x86', 'linux', 'binnet-0.7-x86-32-linux'],
  ['x86', 'windows', 'binnet-0.7-x86-32-windows'],
  ['x86', 'android', 'binnet-0.7-x86-32-android'],
  ['arm64', 'linux', 'binnet-0.7-arm-64-linux'],
  ['arm64', 'windows', 'binnet-0.7-arm-64-windows'],
  ['arm64', 'android', 'binnet-0.7-arm-64-android'],
  // No model: 32-bit ARM, other ISAs, macOS, and anything unidentified.
  ['arm', 'linux', null],
  ['arm', 'android', null],
  ['mips', 'linux', null],
  ['mips64', 'linux', null],
  ['ppc', 'linux', null],
  ['ppc64', 'linux', null],
  ['riscv', 'linux', null],
  ['x86_64', 'macos', null],
  ['arm64', 'macos', null],
  ['x86_64', 'unknown', null],
  ['unknown', 'linux', null],
  ['unknown', 'unknown', null],
];

for (const [architecture, platform, want] of cases) {
  test(`pickModel: ${architecture}/${platform} → ${want}`, () => {
    assert.equal(pickModel({ architecture, platform }), want);
  });
}

test('pickModel: every published model is reachable', () => {
  const reached = new Set(cases.map(([architecture, platform]) => pickModel({ architecture, platform })));
  for (const name of MODEL_NAMES) assert.ok(reached.has(name), name);
});
