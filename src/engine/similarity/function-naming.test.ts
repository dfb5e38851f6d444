import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { canonicalName, isPlaceholderName } from './canonical-name.js';
import {
  nameConfidences,
  suggestNamesNow,
  type NamingCandidate,
  type NamingInput,
  type NamingOptions,
  type NamingQuery,
} from './function-naming.js';
import { matchLogit } from './pool-confidence.js';

const AUTO: NamingOptions = { callGraph: false, minSimilarity: 0.5, confidenceThreshold: 0.5, minGroupSize: 1 };
const AI: NamingOptions = { ...AUTO, callGraph: true };

// Reference functions: id 1000 + n in binary 1 (analysis 11), 2000 + n in binary 2 (analysis 12).
const ref = (id: number, name: string, similarity: number): NamingCandidate => ({
  functionId: id,
  analysisId: id < 2000 ? 11 : 12,
  binaryId: id < 2000 ? 1 : 2,
  name,
  similarity,
});
const stripped = (id: number): NamingQuery => ({ functionId: id, name: `sub_${id.toString(16)}`, renamable: true });

function input(
  queries: NamingQuery[],
  candidates: Record<number, NamingCandidate[]>,
  calls: [number, number][] = [],
  poolSize = 100,
  layout: number[][] = [],
): NamingInput {
  return {
    queries,
    candidates: new Map(Object.entries(candidates).map(([k, v]) => [Number(k), v])),
    calls: calls.map(([caller, callee]) => ({ caller, callee })),
    layout,
    poolSize,
  };
}

describe('canonicalName', () => {
  for (const [raw, want] of [
    ['LZ4_compress', 'LZ4_compress'],
    ['mdb_page_split.constprop.0', 'mdb_page_split'],
    ['foo.isra.0.cold', 'foo'],
    ['bar.part.3', 'bar'],
    ['_XXH32@12', 'XXH32'],
    ['_plain', '_plain'],
  ] as const)
    test(`${raw} → ${want}`, () => assert.equal(canonicalName(raw), want));

  test('placeholders are sub_<hex> only', () => {
    assert.equal(isPlaceholderName('sub_4010a0'), true);
    assert.equal(isPlaceholderName('sub_main'), false);
    assert.equal(isPlaceholderName('main'), false);
  });
});

describe('matchLogit', () => {
  test('a similarity is worth less against a larger index, never more below the calibration pool', () => {
    assert.ok(matchLogit(0.8, 10_000) < matchLogit(0.8, 1000));
    assert.ok(matchLogit(0.8, 1000) < matchLogit(0.8, 100));
    assert.equal(matchLogit(0.8, 10), matchLogit(0.8, 100));
    assert.ok(matchLogit(0.9, 1000) > matchLogit(0.8, 1000));
  });
});

describe('suggestNames (auto)', () => {
  test('a clear nearest match names the function, with its evidence', () => {
    const [s] = suggestNamesNow(input([stripped(1)], { 1: [ref(1001, 'LZ4_decompress', 0.95)] }), AUTO);
    assert.ok(s);
    assert.equal(s.name, 'LZ4_decompress');
    assert.deepEqual([s.matchedFunctionId, s.matchedBinaryId, s.matchedAnalysisId, s.similarity], [1001, 1, 11, 0.95]);
    assert.ok(s.confidence > 0.9 && s.confidence <= 1);
    assert.equal(s.alternatives[0]!.name, 'LZ4_decompress');
  });

  test('two equally near functions of different names: ambiguous, no name', () => {
    const out = suggestNamesNow(input([stripped(1)], { 1: [ref(1001, 'alpha', 0.9), ref(2001, 'beta', 0.9)] }), {
      ...AUTO,
      confidenceThreshold: 0.6,
    });
    assert.deepEqual(out, []);
  });

  test('the same name in several reference builds adds up', () => {
    const one = suggestNamesNow(input([stripped(1)], { 1: [ref(1001, 'x', 0.7)] }), AUTO)[0]!;
    const two = suggestNamesNow(
      input([stripped(1)], { 1: [ref(1001, 'x', 0.7), ref(2001, 'x.constprop.0', 0.7)] }),
      AUTO,
    )[0]!;
    assert.ok(two.confidence > one.confidence, `${two.confidence} > ${one.confidence}`);
    assert.equal(two.agreeingBinaries, 2);
  });

  test('a larger index lowers the confidence of the same similarity', () => {
    const any = { ...AUTO, confidenceThreshold: 0 };
    const small = suggestNamesNow(input([stripped(1)], { 1: [ref(1001, 'x', 0.75)] }, [], 100), any)[0]!;
    const large = suggestNamesNow(input([stripped(1)], { 1: [ref(1001, 'x', 0.75)] }, [], 100_000), any)[0]!;
    assert.ok(large.confidence < small.confidence);
  });

  test('only renamable functions get names; thresholds and min similarity hold', () => {
    const named: NamingQuery = { functionId: 2, name: 'main', renamable: false };
    const out = suggestNamesNow(
      input([stripped(1), named, stripped(3)], {
        1: [ref(1001, 'a', 0.95)],
        2: [ref(1002, 'b', 0.95)],
        3: [ref(1003, 'c', 0.45)],
      }),
      AUTO,
    );
    assert.deepEqual(
      out.map((s) => s.functionId),
      [1],
    );
  });

  test('min group size: a binary that is nobody else’s best match gives no names', () => {
    const queries = [stripped(1), stripped(2), stripped(3)];
    const cands = { 1: [ref(1001, 'a', 0.95)], 2: [ref(1002, 'b', 0.95)], 3: [ref(2003, 'c', 0.95)] };
    assert.deepEqual(
      suggestNamesNow(input(queries, cands), { ...AUTO, minGroupSize: 2 }).map((s) => s.name),
      ['a', 'b'],
    );
    assert.equal(suggestNamesNow(input(queries, cands), AUTO).length, 3);
  });

  test('auto lets two functions take the same reference function', () => {
    const cands = { 1: [ref(1001, 'dup', 0.95)], 2: [ref(1001, 'dup', 0.93)] };
    assert.deepEqual(
      suggestNamesNow(input([stripped(1), stripped(2)], cands), AUTO).map((s) => s.name),
      ['dup', 'dup'],
    );
  });
});

describe('suggestNames (ai: call graph)', () => {
  // Query: 1 calls 2 and 3. Reference binary 1: 1001 calls 1002 and 1003; binary 2 has look-alikes.
  const queries = [stripped(1), stripped(2), stripped(3)];
  const calls: [number, number][] = [
    [1, 2],
    [1, 3],
    [1001, 1002],
    [1001, 1003],
  ];

  test('agreeing neighbours resolve an ambiguous match and are counted in the evidence', () => {
    const cands = {
      1: [ref(1001, 'parent', 0.92)],
      2: [ref(2002, 'impostor', 0.72), ref(1002, 'child', 0.72)],
      3: [ref(1003, 'sibling', 0.9)],
    };
    const auto = suggestNamesNow(input(queries, cands, calls), { ...AUTO, confidenceThreshold: 0.6 });
    assert.equal(
      auto.find((s) => s.functionId === 2),
      undefined,
    );
    const ai = suggestNamesNow(input(queries, cands, calls), { ...AI, confidenceThreshold: 0.6 });
    const child = ai.find((s) => s.functionId === 2);
    assert.equal(child?.name, 'child');
    assert.equal(child.agreeingNeighbours, 1);
    assert.equal(ai.find((s) => s.functionId === 1)!.agreeingNeighbours, 2);
  });

  test('anchors (functions with real names) vouch for their neighbours', () => {
    const anchored: NamingQuery[] = [{ functionId: 1, name: 'parent', renamable: false }, stripped(2)];
    const cands = {
      1: [ref(1001, 'parent', 0.9)],
      2: [ref(2002, 'impostor', 0.72), ref(1002, 'child', 0.72)],
    };
    const out = suggestNamesNow(input(anchored, cands, calls), { ...AI, confidenceThreshold: 0.6 });
    assert.deepEqual(
      out.map((s) => [s.functionId, s.name]),
      [[2, 'child']],
    );
  });

  test('contradicting neighbours lower confidence', () => {
    // 3 is confidently matched into binary 1 to a function that 1001 does not call.
    const agree = { 1: [ref(1001, 'parent', 0.75)], 3: [ref(1003, 'sibling', 0.95)] };
    const contradict = { 1: [ref(1001, 'parent', 0.75)], 3: [ref(1009, 'stranger', 0.95)] };
    const score = (c: Record<number, NamingCandidate[]>) =>
      suggestNamesNow(input(queries, c, [...calls, [1001, 1009 - 1]]), { ...AI, confidenceThreshold: 0 }).find(
        (s) => s.functionId === 1,
      )!;
    const a = score(agree);
    const b = score(contradict);
    assert.ok(b.confidence < a.confidence, `${b.confidence} < ${a.confidence}`);
    assert.equal(b.contradictingNeighbours, 1);
    const alone = suggestNamesNow(input([stripped(1)], { 1: agree[1] }), { ...AI, confidenceThreshold: 0 })[0]!;
    assert.ok(b.confidence < alone.confidence);
  });

  test('address order agrees like a call: twins of identical bodies told apart by their neighbours', () => {
    // 2 and 3 have the same body as 1002 and 1003 (similarity 1 to both); 1 precedes 2, 2 precedes 3.
    const twins = {
      1: [ref(1001, 'first', 0.95)],
      2: [ref(1002, 'twin_a', 1), ref(1003, 'twin_b', 1)],
      3: [ref(1003, 'twin_b', 1), ref(1002, 'twin_a', 1)],
    };
    const none = suggestNamesNow(input(queries, twins), { ...AI, confidenceThreshold: 0.6 });
    assert.deepEqual(
      none.map((s) => s.functionId),
      [1],
    );
    const layout = [
      [1, 2, 3],
      [1001, 1002, 1003],
    ];
    const out = suggestNamesNow(input(queries, twins, [], 100, layout), { ...AI, confidenceThreshold: 0.6 });
    assert.deepEqual(
      out.map((s) => [s.functionId, s.name]),
      [
        [1, 'first'],
        [2, 'twin_a'],
        [3, 'twin_b'],
      ],
    );
  });

  test('one reference function names one query function: the better one', () => {
    const cands = { 1: [ref(1001, 'dup', 0.9)], 2: [ref(1001, 'dup', 0.95)] };
    const out = suggestNamesNow(input([stripped(1), stripped(2)], cands), AI);
    assert.deepEqual(
      out.map((s) => [s.functionId, s.name]),
      [[2, 'dup']],
    );
  });

  test('progress is yielded and ends in the suggestions', async () => {
    const many = Array.from({ length: 600 }, (_, i) => stripped(i + 1));
    const cands = Object.fromEntries(
      many.map((q) => [q.functionId, [ref(1000 + q.functionId, `f${q.functionId}`, 0.9)]]),
    );
    const { suggestNames } = await import('./function-naming.js');
    const it = suggestNames(input(many, cands), AI);
    const progress: number[] = [];
    let r = it.next();
    while (!r.done) {
      progress.push(r.value);
      r = it.next();
    }
    assert.ok(progress.length > 4);
    assert.deepEqual(
      progress,
      [...progress].sort((a, b) => a - b),
    );
    assert.ok(progress.every((p) => p > 0 && p <= 1));
    assert.equal(r.value.length, 600);
  });
});

describe('nameConfidences', () => {
  test('names ranked by summed probability, clone suffixes folded', () => {
    const scores = nameConfidences([ref(1001, 'a', 0.9), ref(2001, 'a.part.0', 0.85), ref(1002, 'b', 0.6)], 100);
    assert.deepEqual(
      scores.map((s) => s.name),
      ['a', 'b'],
    );
    assert.ok(scores[0]!.confidence > 0.9 && scores[0]!.confidence + scores[1]!.confidence < 1);
  });
});
