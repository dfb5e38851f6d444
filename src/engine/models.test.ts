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
  // Beyond the reference's nine: 32-bit ARM, MIPS32 and macOS.
  ['arm', 'linux', 'binnet-0.7-arm-32-linux'],
  ['arm', 'android', 'binnet-0.7-arm-32-android'],
  ['mips', 'linux', 'binnet-0.7-mips-32-linux'],
  ['x86_64', 'macos', 'binnet-0.7-x86-64-macos'],
  ['arm64', 'macos', 'binnet-0.7-arm-64-macos'],
  // No model: ISAs without a decoder, platforms without a model, and anything unidentified.
  ['arm', 'windows', null],
  ['mips', 'android', null],
  ['mips64', 'linux', null],
  ['ppc', 'linux', null],
  ['ppc64', 'linux', null],
  ['riscv', 'linux', null],
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
