// capstone-wasm (Capstone 5 for ARM, AArch64 and x86, compiled to WebAssembly) loaded once per process.
// Its JavaScript wrapper builds an object per instruction and exposes no detail (groups, operands), so
// this file calls the Emscripten exports directly and reads `cs_insn`/`cs_detail` out of the module's
// heap. Struct offsets are those of Capstone 5.0 built for wasm32 (4-byte pointers, 8-byte int64
// alignment); capstone-runtime.test.ts checks them against known instructions.
import type { InstructionText } from './instruction.js';
import { DecoderError } from './errors.js';

/** The Emscripten module's exports this file uses. */
export interface CapstoneModule {
  HEAPU8: Uint8Array;
  HEAP32: Int32Array;
  HEAPU32: Uint32Array;
  _malloc(size: number): number;
  _free(ptr: number): void;
  _cs_open(arch: number, mode: number, handlePtr: number): number;
  _cs_option(handle: number, type: number, value: number): number;
  _cs_close(handlePtr: number): number;
  _cs_disasm(handle: number, code: number, size: number, address: bigint, count: number, insnPtrPtr: number): number;
  _cs_free(insn: number, count: number): void;
  _cs_insn_name(handle: number, id: number): number;
  _cs_reg_name(handle: number, id: number): number;
  UTF8ToString(ptr: number, maxBytes?: number): string;
}

const CS_ARCH_ARM = 0;
const CS_ARCH_ARM64 = 1;
const CS_MODE_ARM = 0;
const CS_MODE_THUMB = 1 << 4;
/** Without it Capstone 5 rejects double-precision VFP (`vadd.f64`), which armhf code is full of. */
const CS_MODE_V8 = 1 << 6;

export type CapstoneMode = 'arm' | 'thumb' | 'arm64';

/** Capstone's arch and mode numbers for an engine mode. */
export function capstoneArchMode(mode: CapstoneMode): [arch: number, mode: number] {
  if (mode === 'arm64') return [CS_ARCH_ARM64, CS_MODE_ARM];
  return [CS_ARCH_ARM, (mode === 'thumb' ? CS_MODE_THUMB : CS_MODE_ARM) | CS_MODE_V8];
}
const CS_OPT_DETAIL = 2;
const CS_OPT_ON = 3;

/** cs_insn: id u32 @0, address u64 @8, size u16 @16, bytes[24] @18, mnemonic[32] @42, op_str[160] @74, detail* @236. */
export const INSN = { size: 240, id: 0, length: 16, mnemonic: 42, opStr: 74, detail: 236 } as const;
/** cs_detail: groups[8] @75, groups_count @83, writeback @84, the architecture's union @88. */
export const DETAIL = { groups: 75, groupsCount: 83, writeback: 84, arch: 88 } as const;

let loading: Promise<CapstoneModule> | undefined;

/** Loads the WebAssembly module once; later calls share it. */
export function loadCapstoneModule(): Promise<CapstoneModule> {
  loading ??= (async () => {
    const { loadCapstone } = await import('capstone-wasm');
    // Emscripten fills the object passed to its factory with the module's exports and heap views.
    const module: Partial<CapstoneModule> = {};
    await loadCapstone(module as Record<string, unknown>);
    if (typeof module._cs_disasm !== 'function' || !module.HEAPU8) {
      throw new DecoderError('backend-unavailable', 'capstone-wasm was initialised without exposing its module');
    }
    return module as CapstoneModule;
  })().catch((e: unknown) => {
    loading = undefined;
    throw e instanceof DecoderError ? e : new DecoderError('backend-unavailable', `capstone-wasm: ${String(e)}`);
  });
  return loading;
}

/** Largest instruction Capstone decodes (x86); ARM and AArch64 need 4. */
const MAX_INSN = 16;

/**
 * One open Capstone handle. `disasm` copies the bytes into the module's heap and hands each decoded
 * `cs_insn` pointer to `visit`; the pointers are valid only during the visit.
 */
export class CapstoneHandle {
  private readonly handlePtr: number;
  readonly handle: number;
  private readonly insnPtrPtr: number;
  private codePtr = 0;
  private codeCapacity = 0;
  private readonly names = new Map<number, string>();

  constructor(
    readonly module: CapstoneModule,
    engineMode: CapstoneMode,
    detail: boolean,
  ) {
    const [arch, mode] = capstoneArchMode(engineMode);
    this.handlePtr = module._malloc(4);
    const err = module._cs_open(arch, mode, this.handlePtr);
    if (err !== 0) throw new DecoderError('backend-unavailable', `cs_open(${arch}, ${mode}) failed: ${err}`);
    this.handle = module.HEAPU32[this.handlePtr >>> 2]!;
    if (detail) module._cs_option(this.handle, CS_OPT_DETAIL, CS_OPT_ON);
    this.insnPtrPtr = module._malloc(4);
  }

  disasm(
    bytes: Uint8Array,
    offset: number,
    length: number,
    vaddr: number,
    count: number,
    visit: (insn: number, index: number) => void,
  ): number {
    const m = this.module;
    if (length > this.codeCapacity) {
      if (this.codePtr) m._free(this.codePtr);
      this.codeCapacity = Math.max(length, 4096);
      this.codePtr = m._malloc(this.codeCapacity);
    }
    m.HEAPU8.set(bytes.subarray(offset, offset + length), this.codePtr);
    const n = m._cs_disasm(this.handle, this.codePtr, length, BigInt(vaddr), count, this.insnPtrPtr);
    if (n === 0) return 0;
    const first = m.HEAPU32[this.insnPtrPtr >>> 2]!;
    try {
      for (let i = 0; i < n; i++) visit(first + i * INSN.size, i);
    } finally {
      m._cs_free(first, n);
    }
    return n;
  }

  text(bytes: Uint8Array, offset: number, vaddr: number): InstructionText | null {
    if (!Number.isInteger(offset) || offset < 0 || offset >= bytes.length) return null;
    let result: InstructionText | null = null;
    this.disasm(bytes, offset, Math.min(MAX_INSN, bytes.length - offset), vaddr, 1, (insn) => {
      result = { mnemonic: this.mnemonic(insn), operands: this.opStr(insn) };
    });
    return result;
  }

  u8(ptr: number): number {
    return this.module.HEAPU8[ptr]!;
  }
  i32(ptr: number): number {
    return this.module.HEAP32[ptr >>> 2]!;
  }
  u32(ptr: number): number {
    return this.module.HEAPU32[ptr >>> 2]!;
  }
  /** An int64 field as a number (exact below 2^53). */
  i64(ptr: number): number {
    return this.u32(ptr) + this.i32(ptr + 4) * 4294967296;
  }
  length(insn: number): number {
    return this.module.HEAPU8[insn + INSN.length]! | (this.module.HEAPU8[insn + INSN.length + 1]! << 8);
  }
  id(insn: number): number {
    return this.u32(insn + INSN.id);
  }
  detail(insn: number): number {
    return this.u32(insn + INSN.detail);
  }
  mnemonic(insn: number): string {
    return this.module.UTF8ToString(insn + INSN.mnemonic, 32);
  }
  opStr(insn: number): string {
    return this.module.UTF8ToString(insn + INSN.opStr, 160);
  }
  hasGroup(detail: number, group: number): boolean {
    const n = this.u8(detail + DETAIL.groupsCount);
    for (let i = 0; i < n; i++) if (this.u8(detail + DETAIL.groups + i) === group) return true;
    return false;
  }
  /** Capstone's instruction name for an id (`b`, `bl`, `ldr`…), cached. */
  insnName(id: number): string {
    let name = this.names.get(id);
    if (name === undefined) {
      name = this.module.UTF8ToString(this.module._cs_insn_name(this.handle, id));
      this.names.set(id, name);
    }
    return name;
  }
  /** The id of a register by its Capstone name (`pc`, `lr`, `sp`), or -1. */
  regId(name: string): number {
    for (let id = 1; id < 512; id++) {
      const p = this.module._cs_reg_name(this.handle, id);
      if (p && this.module.UTF8ToString(p) === name) return id;
    }
    return -1;
  }
}
