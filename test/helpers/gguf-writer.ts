// Writes GGUF v3 files (the model container of ggml and llama.cpp) for tests that load a model they made
// themselves. Layout, all little-endian: "GGUF", version (u32), tensor count (u64), metadata count (u64);
// each metadata entry as key (u64 length + UTF-8), value type (u32), value; each tensor's info as name,
// dimension count (u32), dimensions (u64, innermost first), ggml type (u32) and offset (u64) into the data
// section; padding to the alignment; then the tensors' data, each at an aligned offset.

/** GGUF metadata value types (the spec's numbering). */
const VALUE_TYPE = { u32: 4, i32: 5, f32: 6, bool: 7, string: 8, array: 9 } as const;
/** ggml tensor type of 32-bit floats, the only one these tests need. */
const GGML_TYPE_F32 = 0;
/** general.alignment's default; the writer uses it and so need not set the key. */
const ALIGNMENT = 32;

type Scalar = { type: 'u32' | 'i32' | 'f32'; value: number } | { type: 'bool'; value: boolean };
export type GgufValue =
  | Scalar
  | { type: 'string'; value: string }
  | { type: 'array'; of: 'string'; values: readonly string[] }
  | { type: 'array'; of: 'i32' | 'f32'; values: readonly number[] };

export interface GgufTensor {
  name: string;
  /** Innermost (contiguous) dimension first, as ggml counts them: a matrix of `rows` rows of `cols` is [cols, rows]. */
  dims: readonly number[];
  data: Float32Array;
}

class ByteSink {
  private chunks: Buffer[] = [];
  length = 0;
  private push(b: Buffer): void {
    this.chunks.push(b);
    this.length += b.length;
  }
  u32(n: number): void {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(n);
    this.push(b);
  }
  u64(n: number): void {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(BigInt(n));
    this.push(b);
  }
  i32(n: number): void {
    const b = Buffer.alloc(4);
    b.writeInt32LE(n);
    this.push(b);
  }
  f32(n: number): void {
    const b = Buffer.alloc(4);
    b.writeFloatLE(n);
    this.push(b);
  }
  string(s: string): void {
    const utf8 = Buffer.from(s, 'utf8');
    this.u64(utf8.length);
    this.push(utf8);
  }
  bytes(b: Buffer): void {
    this.push(b);
  }
  padTo(alignment: number): void {
    const pad = (alignment - (this.length % alignment)) % alignment;
    if (pad) this.push(Buffer.alloc(pad));
  }
  toBuffer(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

function writeScalar(out: ByteSink, type: 'u32' | 'i32' | 'f32' | 'string', value: number | string): void {
  if (type === 'string') out.string(value as string);
  else out[type](value as number);
}

function writeValue(out: ByteSink, v: GgufValue): void {
  out.u32(VALUE_TYPE[v.type]);
  if (v.type === 'bool') out.bytes(Buffer.of(v.value ? 1 : 0));
  else if (v.type !== 'array') writeScalar(out, v.type, v.value);
  else {
    out.u32(VALUE_TYPE[v.of]);
    out.u64(v.values.length);
    for (const item of v.values) writeScalar(out, v.of, item);
  }
}

/** The bytes of a GGUF v3 file holding `metadata` (in order) and F32 `tensors`. */
export function writeGguf(
  metadata: ReadonlyArray<readonly [string, GgufValue]>,
  tensors: readonly GgufTensor[],
): Buffer {
  const out = new ByteSink();
  out.bytes(Buffer.from('GGUF', 'latin1'));
  out.u32(3);
  out.u64(tensors.length);
  out.u64(metadata.length);
  for (const [key, value] of metadata) {
    out.string(key);
    writeValue(out, value);
  }
  let offset = 0;
  for (const t of tensors) {
    const elements = t.dims.reduce((a, b) => a * b, 1);
    if (elements !== t.data.length) throw new Error(`${t.name}: ${t.data.length} values for dims ${t.dims.join('×')}`);
    out.string(t.name);
    out.u32(t.dims.length);
    for (const d of t.dims) out.u64(d);
    out.u32(GGML_TYPE_F32);
    out.u64(offset);
    offset += Math.ceil(t.data.byteLength / ALIGNMENT) * ALIGNMENT;
  }
  for (const t of tensors) {
    out.padTo(ALIGNMENT);
    out.bytes(Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength));
  }
  out.padTo(ALIGNMENT);
  return out.toBuffer();
}
