// One binary's recovered functions → FunctionInput per function → features. The only place features meet
// the image: it reads each instruction's text through its encoding (engine/encodings: formatted once per
// distinct encoding, never decoded again here) and resolves calls, imports and string references.
import { CallKind, functionBlocks, type FunctionGraph } from '../cfg/index.js';
import type { Encodings } from '../encodings/index.js';
import { importsByAddress, type BinaryImage } from '../formats/image.js';
import { stringReferences, type FoundString } from '../strings/index.js';
import { isaFamily, type InstructionClass } from '../isa/index.js';
import { classifyInstruction } from './instruction-class.js';
import { functionFeatures, type FunctionFeatures, type FunctionInput } from './function-features.js';
import { operandConstants } from './operand-constants.js';

/** Longer strings are cut: 64 characters identify a message; the rest only adds collisions to nothing. */
const STRING_KEY_CHARS = 64;
/**
 * Instructions read per function at most: sqlite's largest function has ~12 000; beyond 20 000 the
 * n-gram histogram is stable and the time is better spent elsewhere.
 */
const MAX_INSNS = 20_000;

interface InstructionFacts {
  classes: InstructionClass[];
  constants: string[];
}

/** Features of every function of `graph`, in the order of `graph.functions`. */
export function binaryFeatures(
  image: BinaryImage,
  graph: FunctionGraph,
  encodings: Encodings,
  strings: FoundString[],
): FunctionFeatures[] {
  return binaryFunctionInputs(image, graph, encodings, strings).map(functionFeatures);
}

export function binaryFunctionInputs(
  image: BinaryImage,
  graph: FunctionGraph,
  encodings: Encodings,
  strings: FoundString[],
): FunctionInput[] {
  const inputs: FunctionInput[] = graph.functions.map(() => ({
    blocks: [],
    constants: [],
    strings: [],
    imports: [],
    internalCalls: 0,
    distinctCallees: 0,
    callers: 0,
    neighbours: [],
  }));
  const isAddress = addressTest(image);
  /** Classes and constants per encoding id, derived from its text the first time it is met. */
  // Filled out of order: allocated whole so it stays a flat array, not a dictionary.
  const known: (InstructionFacts | null | undefined)[] = new Array<undefined>(encodings.text.length).fill(undefined);
  const factsOf = (id: number): InstructionFacts | null => {
    let facts = known[id];
    if (facts === undefined) {
      const text = encodings.text[id]!;
      const family = isaFamily(encodings.mode[id]!);
      facts = text && {
        classes: classifyInstruction(family, text.mnemonic, text.operands),
        constants: operandConstants(family, text.mnemonic, text.operands, isAddress),
      };
      known[id] = facts;
    }
    return facts;
  };
  functionBlocks(graph).forEach(({ blocks, succ }, fi) => {
    const input = inputs[fi]!;
    let budget = MAX_INSNS;
    input.blocks = blocks.map((gb, local) => {
      const classes: InstructionClass[] = [];
      const first = graph.blocks.firstInsn[gb]!;
      for (let k = first, last = first + graph.blocks.insns[gb]!; k < last && budget > 0; k++, budget--) {
        const id = encodings.of[k]!;
        const facts = id < 0 ? null : factsOf(id);
        if (!facts) break;
        for (const c of facts.classes) classes.push(c);
        for (const c of facts.constants) input.constants.push(c);
      }
      return { classes, succ: succ[local]! };
    });
  });
  addStrings(graph, strings, inputs);
  addCalls(image, graph, inputs);
  return inputs;
}

/**
 * True for values inside a section: addresses, not constants. PIE images are linked at 0, so their
 * sections cover small numbers too; below 64 KiB a value is taken as a constant (buffer sizes, masks)
 * at the cost of missing the address of a non-PIE image's first page, where no code is placed.
 */
function addressTest(image: BinaryImage): (v: number) => boolean {
  const ranges = image.sections.filter((s) => s.size > 0).map((s) => [s.vaddr, s.vaddr + s.size] as const);
  return (v) => v >= 0x10000 && ranges.some(([lo, hi]) => v >= lo && v < hi);
}

/** Imports called, internal callees and callers; then each function's callees' imports and strings. */
function addCalls(image: BinaryImage, graph: FunctionGraph, inputs: FunctionInput[]): void {
  const importAt = importsByAddress(image);
  const funcAt = new Map<number, number>(graph.functions.map((f, i) => [f.start, i]));
  const callees = inputs.map(() => new Set<number>());
  const { caller, target, kind } = graph.calls;
  for (let c = 0; c < caller.length; c++) {
    const from = inputs[caller[c]!];
    if (!from) continue;
    const t = target[c]!;
    const name = importAt.get(t);
    if (name !== undefined || kind[c] === CallKind.Import) {
      if (name !== undefined) from.imports.push(name);
      continue;
    }
    const callee = funcAt.get(t);
    if (callee === undefined) continue;
    from.internalCalls++;
    callees[caller[c]!]!.add(callee);
    inputs[callee]!.callers++;
  }
  inputs.forEach((f, i) => {
    f.distinctCallees = callees[i]!.size;
    for (const c of callees[i]!) {
      if (c === i) continue;
      for (const name of new Set(inputs[c]!.imports)) f.neighbours.push(`import:${name}`);
      for (const s of new Set(inputs[c]!.strings)) f.neighbours.push(`string:${s}`);
    }
  });
}

function addStrings(graph: FunctionGraph, strings: FoundString[], inputs: FunctionInput[]): void {
  for (const r of stringReferences(strings, graph)) {
    const s = strings[r.string]!;
    inputs[r.func]?.strings.push(s.value.slice(0, STRING_KEY_CHARS));
  }
}
