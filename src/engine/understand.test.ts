import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { compileRules, parseRule, matchRules } from './capabilities/index.js';
import { CORPUS } from '../../test/helpers/engine/disasm.js';
import { encodeInstructions } from './encodings/index.js';
import { analyze } from './pipeline.js';
import { recoverBinaryFunctions } from './recover-binary.js';
import { extractStrings } from './strings/index.js';
import { understandCapabilities } from './understand.js';

const INJECT = `rule:
  meta:
    name: write and run code in another process
    namespace: host-interaction/process/inject
    scopes: { static: function, dynamic: unsupported }
    att&ck: ['Defense Evasion::Process Injection [T1055]']
  features:
    - and:
      - api: kernel32.VirtualAllocEx
      - api: kernel32.WriteProcessMemory
      - api: kernel32.CreateRemoteThread
`;
const PE_FILE = `rule:
  meta:
    name: windows executable
    namespace: executable/pe
    scopes: { static: file, dynamic: unsupported }
  features:
    - and:
      - format: pe
      - os: windows
`;

test('understand: capabilities land in the function that does them, features re-match after freezing', async (t) => {
  const file = path.join(CORPUS, 'bin', 'samples', 'sample-win_injector_win-x86_64_mingw-gcc12_O2_stripped.exe');
  if (!existsSync(file)) return t.skip('../shared/corpus is not present');
  const { image, graph, decoders } = await recoverBinaryFunctions(readFileSync(file), {});
  const rules = compileRules([INJECT, PE_FILE].flatMap((r, i) => parseRule(r, `r${i}.yml`).rules));
  const u = understandCapabilities(
    image,
    graph,
    encodeInstructions(image, graph, decoders),
    extractStrings(image),
    rules,
  );
  const byRule = new Map(u.capabilities!.matches.map((m) => [m.rule, m]));
  const inject = byRule.get('write and run code in another process')!;
  assert.equal(inject.functions.length, 1, 'one function calls all three');
  assert.ok(graph.functions.some((f) => f.start === inject.functions[0]));
  assert.deepEqual(inject.attack, ['Defense Evasion::Process Injection [T1055]']);
  assert.deepEqual(byRule.get('windows executable')!.functions, []);
  assert.ok(u.capabilities!.evaluations < u.capabilities!.naiveEvaluations);
  // Re-matching the frozen features (as after a rules update) gives the same matches.
  const again = matchRules(rules, JSON.parse(JSON.stringify(u.features)));
  assert.deepEqual([...again.matches.keys()].sort(), [...byRule.keys()].sort());
});

test('understand: nothing is generated unless asked', async (t) => {
  const file = path.join(CORPUS, 'bin', 'lz4', 'lz4-1.10.0_linux-x86_64_clang14_O2_stripped');
  if (!existsSync(file)) return t.skip('../shared/corpus is not present');
  const bytes = readFileSync(file);
  const none = await analyze(bytes, { rules: null, sbom: false });
  assert.deepEqual([none.capabilities, none.capabilityFeatures, none.sbom], [null, null, null]);
  const sbom = await analyze(bytes, { rules: null, sbom: true });
  assert.deepEqual(
    sbom.sbom!.map((l) => `${l.name} ${l.version}`),
    ['lz4 1.10.0'],
  );
});
