// Container → decoders → function recovery, for one binary: the static core the pipeline and the
// benchmarks share.
import { recoverFunctions, type ClientFunction, type FunctionGraph } from './cfg/index.js';
import { adoptDebugSymbols } from './debug-symbols.js';
import { createDecoder } from './disasm/index.js';
import type { DecoderMode, Decoders } from './disasm/instruction.js';
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

/** The decoders an image's instruction set needs (ARM gets A32 and Thumb). */
export async function decodersFor(image: BinaryImage): Promise<Decoders> {
  const id = image.identity;
  const mode: Record<string, DecoderMode | undefined> = {
    x86: 'x86',
    x86_64: 'x86_64',
    arm: 'arm',
    arm64: 'arm64',
    mips: id.endianness === 'big' ? 'mips' : 'mipsel',
  };
  const m = mode[id.architecture];
  if (!m) throw new FormatError(id.format, 'bad-header', `no disassembler for architecture ${id.architecture}`);
  const decoder = await createDecoder(m);
  return m === 'arm' ? { decoder, thumbDecoder: await createDecoder('thumb') } : { decoder };
}

/** ARM images whose entry point is Thumb code are Thumb throughout unless a symbol says otherwise. */
const thumbByDefault = (image: BinaryImage) => image.entryPoints.some((e) => e.kind === 'entry' && e.thumb === true);

/** The container parsed (or the blob loaded), with a separate debug file's names adopted. */
export function loadImage(
  bytes: Uint8Array,
  opts: RecoverBinaryOptions,
): { image: BinaryImage; debugNamed: Set<number> } {
  const image = parseBinary(bytes, opts.raw);
  const debugNamed = opts.debug ? adoptDebugSymbols(image, opts.debug) : new Set<number>();
  return { image, debugNamed };
}

/** The image's decoders and its functions, recovered. */
export async function recoverImage(
  image: BinaryImage,
  symbols: ClientSymbols | null | undefined,
): Promise<{ graph: FunctionGraph; decoders: Decoders }> {
  const decoders = await decodersFor(image);
  const client = rebase(symbols, image.identity.baseAddress ?? 0);
  const graph = recoverFunctions(image, {
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
