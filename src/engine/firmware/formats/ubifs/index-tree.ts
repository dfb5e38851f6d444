// The UBIFS index: a B+-tree of index nodes from the master node's root, each branch (LEB, offset, length,
// key) pointing at an index node one level down or, from level 0, at a leaf node. The walk records where
// every inode, data and directory-entry node lies by its key; the nodes themselves are read later.
import { IDX_NODE, IDX_NODE_SIZE, keyInum, keyRest, keyType, nodeAt, le16, le32, type Volume } from './nodes.js';

/** Tree levels followed: mkfs's fanout of 8 reaches billions of nodes in 12; the kernel allows 512. */
const MAX_LEVEL = 32;
/** A branch is LEB, offset and length (12 bytes) and an 8-byte key, then a hash on authenticated images. */
const BRANCH_MIN = 20;
/** Branches a real index has at most: one per leaf, and leaves are at least 48 bytes apart. */
const BYTES_PER_BRANCH = 16;

const INO_KEY = 0;
const DATA_KEY = 1;
const DENT_KEY = 2;

export interface NodeRef {
  lnum: number;
  offs: number;
  len: number;
  /** The key's inode number: the inode itself, the file of a data node, the directory of an entry. */
  inum: number;
  /** The key's second word: type << 29 | block number (data) or name hash (entries). */
  rest: number;
}

export interface Leaves {
  inodes: Map<number, NodeRef>;
  /** Data nodes of each inode. */
  data: Map<number, NodeRef[]>;
  dents: NodeRef[];
  indexNodes: number;
}

/** Every leaf the index reaches from its root (a node reached twice is walked once). */
export function walkIndex(
  vol: Volume,
  root: { lnum: number; offs: number; len: number },
  problem: (m: string) => void,
): Leaves {
  const { data } = vol;
  const leaves: Leaves = { inodes: new Map(), data: new Map(), dents: [], indexNodes: 0 };
  const seen = new Set<number>();
  let branchBudget = Math.ceil((vol.lebCount * vol.lebSize) / BYTES_PER_BRANCH);
  let damaged = 0;
  let misplaced = 0;
  const stack: { lnum: number; offs: number; len: number; level: number | null }[] = [{ ...root, level: null }];
  while (stack.length) {
    const { lnum, offs, len, level: expected } = stack.pop()!;
    const at = vol.at(lnum, offs, len);
    if (at === null || seen.has(at)) {
      if (at === null) damaged++;
      continue;
    }
    seen.add(at);
    const nodeLen = nodeAt(data, at, IDX_NODE, IDX_NODE_SIZE);
    const children = le16(data, at + 24);
    const level = le16(data, at + 26);
    const branchSize = children ? (len - IDX_NODE_SIZE) / children : 0;
    if (nodeLen !== len || !Number.isInteger(branchSize) || branchSize < BRANCH_MIN) {
      damaged++;
      continue;
    }
    // Each child one level down: no cycles, and at most MAX_LEVEL + 1 nodes deep.
    if (level > MAX_LEVEL || (expected !== null && level !== expected)) {
      misplaced++;
      continue;
    }
    leaves.indexNodes++;
    branchBudget -= children;
    if (branchBudget < 0) {
      problem('the index has more branches than the volume has room for; the walk stops');
      break;
    }
    for (let i = 0, b = at + IDX_NODE_SIZE; i < children; i++, b += branchSize) {
      const ref = { lnum: le32(data, b), offs: le32(data, b + 4), len: le32(data, b + 8) };
      if (level > 0) {
        stack.push({ ...ref, level: level - 1 });
        continue;
      }
      const leaf: NodeRef = { ...ref, inum: keyInum(data, b + 12), rest: keyRest(data, b + 12) };
      const type = keyType(leaf.rest);
      if (type === INO_KEY) leaves.inodes.set(leaf.inum, leaf);
      else if (type === DENT_KEY) leaves.dents.push(leaf);
      else if (type === DATA_KEY) {
        const list = leaves.data.get(leaf.inum);
        if (list) list.push(leaf);
        else leaves.data.set(leaf.inum, [leaf]);
      }
      // Extended-attribute entries (key type 3) are not extracted.
    }
  }
  if (damaged) problem(`${damaged} index nodes are damaged or out of the volume; what they lead to is missing`);
  if (misplaced)
    problem(`${misplaced} index nodes are at the wrong level (past ${MAX_LEVEL}, or not one below their parent)`);
  return leaves;
}
