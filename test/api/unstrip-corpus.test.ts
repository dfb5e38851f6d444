// Names that are right: auto-unstrip and ai-unstrip of a stripped corpus build (lmdb, x86-64 gcc -O2) with
// two unstripped builds of the same project as references (gcc -O1, clang -O2), scored against the truth
// of the stripped build's unstripped twin. SQLite only (the store code is shared; the suites of
// function-matching.test.ts cover both databases). Skipped without ../shared/corpus.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { before, describe, test } from 'node:test';
import { canonicalName } from '../../src/engine/similarity/index.js';
import { backends } from '../helpers/backends.js';
import { useHarness } from '../helpers/harness.js';

const CORPUS = resolve(process.cwd(), '..', 'shared', 'corpus');
const STEM = 'lmdb-0.9.29_linux-x86_64';
const skip = existsSync(CORPUS) ? false : '../shared/corpus absent';

describe('unstrip on a corpus build (sqlite)', { skip }, () => {
  const h = useHarness(backends[0]!, { workers: 2 });
  let query: number;
  let truth: Map<number, string>;

  before(async () => {
    const { alice } = h().keys;
    const bin = (build: string) => readFileSync(join(CORPUS, 'bin', 'lmdb', `${STEM}_${build}`));
    const ids = [
      await h().analysis(alice, bin('gcc12_O1')),
      await h().analysis(alice, bin('clang14_O2')),
      (query = await h().analysis(alice, bin('gcc12_O2_stripped'))),
    ];
    for (const id of ids) assert.equal(await h().waitForStatus(alice, id), 'Complete');
    const t = JSON.parse(readFileSync(join(CORPUS, 'truth', `${STEM}_gcc12_O2.json`), 'utf8')) as {
      functions: { address: string; name: string }[];
    };
    truth = new Map(t.functions.map((f) => [parseInt(f.address, 16), canonicalName(f.name)]));
  });

  const run = async (kind: string) => {
    const url = `/v2/analyses/${query}/functions/${kind}`;
    let r = (await h().request('POST', url, h().keys.alice, {})).json();
    for (let i = 0; i < 600 && r.status !== 'COMPLETED'; i++) {
      await new Promise((res) => setTimeout(res, 100));
      r = (await h().request('POST', url, h().keys.alice, {})).json();
    }
    assert.equal(r.status, 'COMPLETED');
    const names = r.matches as { function_vaddr: number; suggested_demangled_name: string }[];
    const right = names.filter((m) => truth.get(m.function_vaddr) === canonicalName(m.suggested_demangled_name));
    return { named: names.length, right: right.length };
  };

  test('ai-unstrip names more functions than auto-unstrip, both at precision ≥ 0.95', async () => {
    const auto = await run('auto-unstrip');
    const ai = await run('ai-unstrip');
    assert.ok(auto.right / auto.named >= 0.95, `auto ${auto.right}/${auto.named}`);
    assert.ok(ai.right / ai.named >= 0.95, `ai ${ai.right}/${ai.named}`);
    assert.ok(ai.right > auto.right, `ai ${ai.right} right vs auto ${auto.right}`);
    assert.ok(ai.right >= 60, `ai names ${ai.right} of lmdb's ~138 functions rightly`);
  });
});
