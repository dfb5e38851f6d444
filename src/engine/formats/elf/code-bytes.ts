// Instruction bytes for the PLT pattern decoders, read in the code's byte order (which for ARM BE8 and
// AArch64 differs from the data's). Reads outside the file yield 0, which matches no pattern.
export class CodeBytes {
  private readonly dv: DataView;

  constructor(
    readonly bytes: Uint8Array,
    readonly little: boolean,
  ) {
    this.dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  private ok(at: number, size: number): boolean {
    return at >= 0 && at + size <= this.bytes.length;
  }

  u16(at: number): number {
    return this.ok(at, 2) ? this.dv.getUint16(at, this.little) : 0;
  }

  u32(at: number): number {
    return this.ok(at, 4) ? this.dv.getUint32(at, this.little) : 0;
  }

  i32(at: number): number {
    return this.ok(at, 4) ? this.dv.getInt32(at, this.little) : 0;
  }
}

/** Receives each stub found: its address and the GOT slot it jumps through. */
export type StubSink = (stub: number, slot: number) => void;
