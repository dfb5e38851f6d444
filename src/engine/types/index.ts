// Type recovery: the C type model, signatures recovered from code over the IR, and (with DWARF or a
// prototype database) declared types. May import src/contracts, src/shared, engine/formats, disasm, isa,
// cfg and ir.
import { functionBlocks, type FunctionGraph } from '../cfg/index.js';
import type { Decoders } from '../disasm/index.js';
import { importsByAddress, type BinaryImage } from '../formats/image.js';
import { FunctionLifter } from '../ir/lift-function.js';
import type { FunctionRecord } from '../../shared/analysis-records.js';
import type { FunctionTypesRecord } from '../../shared/type-records.js';
import { declaredRecord, type Declared } from './declared-types.js';
import { readDwarfTypes, type DwarfTypes } from './dwarf/index.js';
import { recoveredRecord } from './function-types.js';
import { GlobalNames } from './globals.js';
import { Callees } from './callees.js';
import { libraryPrototypes, type Platform as LibraryPlatform, type PrototypeDatabase } from './prototypes/index.js';
import type { RecoveredSignature } from './recovered-signature.js';
import { recoverSignatures } from './signatures.js';

export * from './ctype.js';
export { recoveredRecord } from './function-types.js';
export type { ParamLocation, RecoveredParam, RecoveredSignature } from './recovered-signature.js';

/** The prototype database for the image's platform and data model. */
export function libraryFor(image: BinaryImage): PrototypeDatabase {
  const { platform, format, bits } = image.identity;
  const os: LibraryPlatform =
    platform === 'windows' || (platform === 'unknown' && format === 'pe')
      ? 'windows'
      : platform === 'macos' || (platform === 'unknown' && format === 'macho')
        ? 'macos'
        : 'linux';
  return libraryPrototypes(os, bits === 64 ? (os === 'windows' ? 'LLP64' : 'LP64') : 'ILP32');
}

/** Every recovered function's signature, by function index (null where its CPU has no lifter yet). */
export function recoverFunctionSignatures(
  image: BinaryImage,
  graph: FunctionGraph,
  decoders: Decoders,
  library: PrototypeDatabase = libraryFor(image),
): (RecoveredSignature | null)[] {
  const lifter = new FunctionLifter(image, graph, decoders, image.identity.platform);
  const starts = graph.functions.map((f) => f.start);
  const callees = new Callees(starts, importsByAddress(image), (name) => library.find(name), library.types);
  return recoverSignatures(lifter, functionBlocks(graph), callees);
}

/**
 * Every function's data types as the store keeps them, in the order of `functions` (the analysis's records):
 * DWARF's where the binary or its debug file has them, else recovered from the code. `signatures`: the
 * recovered ones, when the caller has them already (recoverFunctionSignatures).
 */
export function functionTypes(
  image: BinaryImage,
  graph: FunctionGraph,
  decoders: Decoders,
  functions: FunctionRecord[],
  debugImage: BinaryImage | null,
  signatures?: (RecoveredSignature | null)[],
): FunctionTypesRecord[] {
  const word = image.identity.bits === 64 ? 8 : 4;
  const dwarf = readDwarfTypes(image) ?? (debugImage ? readDwarfTypes(debugImage) : null);
  const declared = dwarf ? dwarfDeclarations(dwarf, image.identity.architecture) : new Map<number, Declared>();
  const library = libraryFor(image);
  const importAt = importsByAddress(image);
  // Recovery runs even beside full DWARF: it costs little next to recovery and keeps one path.
  const sigs = signatures ?? recoverFunctionSignatures(image, graph, decoders, library);
  const globals = new GlobalNames(image, dwarf, word);
  const typesOf = (f: FunctionRecord, i: number): FunctionTypesRecord | null => {
    const convention = sigs[i]?.convention ?? '';
    const d = declared.get(f.vaddr);
    // An import's stub or thunk is the library function.
    const name = importAt.get(f.vaddr);
    const known = name === undefined ? null : library.find(name);
    if (d) return declaredRecord(f, d, dwarf!.table, word, convention);
    if (known)
      return declaredRecord(
        f,
        { name: known.name, prototype: known.prototype, source: 'library', locals: [] },
        library.types,
        word,
        known.stdcall ? 'stdcall' : convention,
      );
    return sigs[i] ? recoveredRecord(f, sigs[i]!, word, (fn) => graph.functions[fn]!.start) : null;
  };
  const out: FunctionTypesRecord[] = [];
  functions.forEach((f, i) => {
    const record = typesOf(f, i);
    if (!record) return;
    // The globals its code touches, wherever its prototype came from.
    if (sigs[i]) record.deps.push(...globals.dependencies(sigs[i]!.globals));
    out.push(record);
  });
  return out;
}

/**
 * DWARF functions as declarations. Locals at `DW_OP_fbreg n` take the frame base to be the call frame
 * address (what GCC and Clang emit): on x86 the entry stack pointer plus the return address's word.
 */
function dwarfDeclarations(dwarf: DwarfTypes, arch: string): Map<number, Declared> {
  const cfa = arch === 'x86_64' ? 8 : arch === 'x86' ? 4 : 0;
  const out = new Map<number, Declared>();
  for (const f of dwarf.functions.values())
    out.set(f.address, {
      name: f.name,
      prototype: f.prototype,
      source: 'dwarf',
      locals: f.locals.flatMap((l) =>
        l.frameOffset === null ? [] : [{ name: l.name, type: l.type, offset: l.frameOffset + cfa }],
      ),
    });
  return out;
}
