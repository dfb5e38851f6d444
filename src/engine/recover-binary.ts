// Container → decoders → function recovery, for one binary: the static core the pipeline and the
// benchmarks share.
import { recoverFunctions, type ClientFunction, type FunctionGraph } from './cfg/index.js';
import { adoptDebugSymbols, loadDebugFile } from './debug-symbols.js';
import { createDecoder } from './disasm/index.js';
import type { Decoders } from './disasm/instruction.js';
import { isaProfile, type IsaProfile } from './isa/index.js';
import type { BinaryImage } from './formats/image.js';
import { parseBinary, type RawLoad } from './formats/parse.js';
import { FormatError } from './formats/errors.js';

/** Plugin-supplied function boundaries, in the plugin's address space (`baseAddress` is its image base). */
export interface ClientSymbols {
  baseAddress: number;
  functions: ClientFunction[];
}

export interface RecoverBinaryOptions {
  raw?: RawLoad;
  symbols?: ClientSymbols | null;
  /** A separate debug file's bytes (see debug-symbols.ts). */
  debug?: Uint8Array | null;
}

/** The image's instruction-set profile; a FormatError when the engine has none for its architecture. */
export function isaOf(image: BinaryImage): IsaProfile {
  const isa = isaProfile(image.identity.architecture);
  if (!isa)
    throw new FormatError(
      image.identity.format,
      'bad-header',
      `no disassembler for architecture ${image.identity.architecture}`,
    );
  return isa;
}

/** The decoders an image's instruction set needs (ARM gets A32 and Thumb). */
export async function decodersFor(image: BinaryImage): Promise<Decoders> {
  const isa = isaOf(image);
  const decoder = await createDecoder(isa.modeFor(image.identity.endianness));
  return isa.thumb ? { decoder, thumbDecoder: await createDecoder('thumb') } : { decoder };
}

/** ARM images whose entry point is Thumb code are Thumb throughout unless a symbol says otherwise. */
const thumbByDefault = (image: BinaryImage) => image.entryPoints.some((e) => e.kind === 'entry' && e.thumb === true);

/** The container parsed (or the blob loaded), with a separate debug file's names adopted. */
export function loadImage(
  bytes: Uint8Array,
  opts: RecoverBinaryOptions,
): { image: BinaryImage; debugNamed: Set<number>; debugImage: BinaryImage | null } {
  const image = parseBinary(bytes, opts.raw);
  const debugImage = opts.debug ? loadDebugFile(image, opts.debug) : null;
  const debugNamed = debugImage ? adoptDebugSymbols(image, debugImage) : new Set<number>();
  return { image, debugNamed, debugImage };
}

/** The image's decoders and its functions, recovered. */
export async function recoverImage(
  image: BinaryImage,
  symbols: ClientSymbols | null | undefined,
): Promise<{ graph: FunctionGraph; decoders: Decoders }> {
  const decoders = await decodersFor(image);
  const client = rebase(symbols, image.identity.baseAddress ?? 0);
  const graph = recoverFunctions(image, {
    isa: isaOf(image),
    ...decoders,
    thumbByDefault: thumbByDefault(image),
    ...(client ? { client } : {}),
  });
  return { graph, decoders };
}

export async function recoverBinaryFunctions(
  bytes: Uint8Array,
  opts: RecoverBinaryOptions,
): Promise<{ image: BinaryImage; graph: FunctionGraph; debugNamed: Set<number>; decoders: Decoders }> {
  const { image, debugNamed } = loadImage(bytes, opts);
  return { image, debugNamed, ...(await recoverImage(image, opts.symbols)) };
}

/** Moves plugin boundaries from the plugin's image base to this image's. */
function rebase(symbols: ClientSymbols | null | undefined, imageBase: number): ClientFunction[] | null {
  if (!symbols?.functions.length) return null;
  const delta = imageBase - symbols.baseAddress;
  return symbols.functions.map((f) => ({ start: f.start + delta, end: f.end + delta, name: f.name }));
}
