// Dominator trees over any directed graph of numbered nodes (Cooper, Harvey and Kennedy's iterative
// algorithm over reverse postorder). SSA construction walks the blocks' dominators; the decompiler's
// structuring asks for post-dominators, the same computation over the reversed graph.

/** Nodes reachable from `entry`, in reverse postorder. */
export function reversePostorder(count: number, entry: number, succ: (n: number) => readonly number[]): number[] {
  const seen = new Uint8Array(count);
  const post: number[] = [];
  if (entry < 0 || entry >= count) return post;
  const stack: [number, number][] = [[entry, 0]];
  seen[entry] = 1;
  while (stack.length) {
    const top = stack[stack.length - 1]!;
    const next = succ(top[0]);
    if (top[1] < next.length) {
      const s = next[top[1]++]!;
      if (!seen[s]) {
        seen[s] = 1;
        stack.push([s, 0]);
      }
    } else {
      post.push(top[0]);
      stack.pop();
    }
  }
  return post.reverse();
}

/** Immediate dominator of every node of `order` (a reverse postorder from its first node); -1 for the root and unreached nodes. */
export function immediateDominators(
  count: number,
  order: readonly number[],
  pred: (n: number) => readonly number[],
): Int32Array {
  const idom = new Int32Array(count).fill(-1);
  const rank = new Int32Array(count).fill(-1);
  order.forEach((b, i) => (rank[b] = i));
  if (!order.length) return idom;
  idom[order[0]!] = order[0]!;
  const intersect = (a: number, b: number): number => {
    while (a !== b) {
      while (rank[a]! > rank[b]!) a = idom[a]!;
      while (rank[b]! > rank[a]!) b = idom[b]!;
    }
    return a;
  };
  for (let changed = true; changed;) {
    changed = false;
    for (let i = 1; i < order.length; i++) {
      const b = order[i]!;
      let d = -1;
      for (const p of pred(b)) {
        if (rank[p]! < 0 || idom[p] === -1) continue;
        d = d < 0 ? p : intersect(p, d);
      }
      if (d >= 0 && idom[b] !== d) {
        idom[b] = d;
        changed = true;
      }
    }
  }
  idom[order[0]!] = -1;
  return idom;
}
