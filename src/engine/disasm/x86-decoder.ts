// x86 and x86-64 through iced-x86 (Rust compiled to WebAssembly). Every getter on an iced Instruction
// is a call into WebAssembly (~20 ns), so the decoder reads as few as it can: length and code always;
// the flow class, immediate kind and LEA-ness come from a table filled once per instruction code; branch
// targets, memory operands and immediates only for the instructions that have them. Measured on the
// corpus: ~9.5 M instructions/s (`npm run bench:disasm`), 0.13× the time `objdump -d` takes on the file.
//
// Rules:
// - flow: iced's FlowControl, except: HLT, INT3, INT1 and UD0/UD1/UD2 are Halt; `int n` continues
//   (system calls: `int 0x80` on Linux i386, `int 0x2e` on Windows) except `int 0x29` (Windows
//   __fastfail, never returns) which is Halt; SYSCALL/SYSENTER/VMCALL… continue (iced calls them Call);
//   far direct JMP/CALL (ptr16:32) are IndirectJump/IndirectCall (a segment change: no flat target);
//   XBEGIN is a Branch to its abort handler; LOOP/JECXZ are Branches.
// - ref: the address of a RIP-relative memory operand, or the displacement of a memory operand with no
//   base register (absolute `[disp32]`, and the table base of `jmp [table + reg*8]`). `refIsMemory` is
//   false for LEA (the address itself is the value).
// - imm: a 32/64-bit immediate operand, unsigned; whether it is an address is the caller's call (it
//   knows the image). 8/16-bit immediates are never addresses and are not reported.
import type * as Iced from 'iced-x86';
import { addr32, addr64, fits } from './bits.js';
import { Flow, clearDecoded, invalid, type Decoded, type Decoder, type InstructionText } from './instruction.js';

export type IcedModule = typeof Iced;

let loading: Promise<IcedModule> | undefined;

/** iced-x86 instantiates its WebAssembly when first imported; later calls share it. */
export function loadIced(): Promise<IcedModule> {
  loading ??= import('iced-x86').catch((e: unknown) => {
    loading = undefined;
    throw e;
  });
  return loading;
}

// Per-code info, packed in a byte: flow (bits 0-3), immediate kind (bits 4-5), LEA (bit 6), known (bit 7).
const KNOWN = 0x80;
const LEA = 0x40;
const IMM_NONE = 0;
const IMM_32 = 1;
const IMM_64 = 2;
/** `int n`: flow depends on n. */
const FLOW_INT_N = 15;
/** Windows __fastfail. */
const INT_FASTFAIL = 0x29;
/** Regions whose WebAssembly copies are kept: .text, .plt, .plt.sec, .init/.fini of an ELF. */
const REGIONS = 4;

export class X86Decoder implements Decoder {
  readonly mode: 'x86' | 'x86_64';
  private readonly bitness: 32 | 64;
  private readonly info: Uint8Array;
  private readonly insn: Iced.Instruction;
  /** iced decoders over the most recently used regions, most recent first (see decoderFor). */
  private readonly regions: { bytes: Uint8Array; decoder: Iced.Decoder; nextOffset: number }[] = [];
  private formatter: Iced.Formatter | undefined;
  private textInsn: Iced.Instruction | undefined;

  constructor(
    /** The iced module, for the IR lifter (ir/x86) that reads instructions in full. */
    readonly iced: IcedModule,
    bits: 32 | 64,
  ) {
    this.bitness = bits;
    this.mode = bits === 64 ? 'x86_64' : 'x86';
    let maxCode = 0;
    for (const v of Object.values(iced.Code)) if (typeof v === 'number' && v > maxCode) maxCode = v;
    this.info = new Uint8Array(maxCode + 1);
    this.insn = new iced.Instruction();
  }

  decode(bytes: Uint8Array, offset: number, vaddr: number, out: Decoded): boolean {
    if (!fits(bytes, offset, 1)) return invalid(out);
    const region = this.regionFor(bytes);
    // Setting the position is a call into WebAssembly; a linear walk does not need it.
    if (offset !== region.nextOffset) region.decoder.position = offset;
    const insn = this.insn;
    region.decoder.decodeOut(insn);
    const code = insn.code;
    if (code === 0) {
      region.nextOffset = -1; // Code.INVALID: iced's position after it is not specified
      return invalid(out);
    }
    const length = insn.length;
    region.nextOffset = offset + length;
    let info = this.info[code]!;
    if (info === 0) info = this.learn(code);
    clearDecoded(out, length);
    let flow = info & 0xf;
    if (flow === FLOW_INT_N) flow = insn.immediate8 === INT_FASTFAIL ? Flow.Halt : Flow.Sequential;
    out.flow = flow;
    if (flow === Flow.Jump || flow === Flow.Branch || flow === Flow.Call) {
      out.target = this.address(vaddr + ((insn.nearBranch32 - insn.ip32) | 0));
      if (flow === Flow.Branch) out.conditional = true;
    }
    if (insn.memoryDisplSize >= 4) this.memoryRef(insn, vaddr, info, out);
    const immKind = (info >>> 4) & 3;
    if (immKind === IMM_32) out.imm = insn.immediate32 >>> 0;
    else if (immKind === IMM_64) {
      const v = insn.immediate64;
      if (v <= BigInt(Number.MAX_SAFE_INTEGER)) out.imm = Number(v);
    }
    return true;
  }

  text(bytes: Uint8Array, offset: number, vaddr: number): InstructionText | null {
    const insn = this.full(bytes, offset, vaddr);
    if (!insn) return null;
    const f = this.textFormatter();
    return { mnemonic: f.formatMnemonic(insn), operands: f.formatAllOperands(insn) };
  }

  /**
   * The whole instruction at `offset`, decoded at `vaddr` (branch targets and RIP-relative operands
   * resolved), or null when invalid: the slow path of formatting and lifting. The record is reused by the
   * next call.
   */
  full(bytes: Uint8Array, offset: number, vaddr: number): Iced.Instruction | null {
    if (!fits(bytes, offset, 1)) return null;
    // The region's decoder, repositioned: a decoder of its own per call cost 2.5 µs of 4.
    const region = this.regionFor(bytes);
    const insn = (this.textInsn ??= new this.iced.Instruction());
    region.decoder.position = offset;
    region.decoder.ip = BigInt(vaddr);
    region.decoder.decodeOut(insn);
    region.nextOffset = -1;
    return insn.code === 0 ? null : insn;
  }

  /**
   * The iced decoder over `bytes`: iced copies the array into WebAssembly memory, so decoders for the last
   * REGIONS arrays are kept (a CFG walk alternates between .text, .plt, .init…), the least recent freed.
   */
  private regionFor(bytes: Uint8Array): { bytes: Uint8Array; decoder: Iced.Decoder; nextOffset: number } {
    const regions = this.regions;
    const first = regions[0];
    if (first?.bytes === bytes) return first;
    const i = regions.findIndex((r) => r.bytes === bytes);
    if (i > 0) {
      const [hit] = regions.splice(i, 1);
      regions.unshift(hit!);
      return hit!;
    }
    if (regions.length >= REGIONS) regions.pop()!.decoder.free();
    const region = {
      bytes,
      decoder: new this.iced.Decoder(this.bitness, bytes, this.iced.DecoderOptions.None),
      nextOffset: 0,
    };
    regions.unshift(region);
    return region;
  }

  private address(a: number): number {
    return this.bitness === 64 ? addr64(a) : addr32(a);
  }

  private memoryRef(insn: Iced.Instruction, vaddr: number, info: number, out: Decoded): void {
    const { Register } = this.iced;
    const base = insn.memoryBase;
    let ref = -1;
    if (base === Register.RIP || base === Register.EIP) {
      // iced resolves RIP-relative operands against its own IP; the distance to it is what carries over.
      const lo = Number(BigInt.asUintN(32, insn.memoryDisplacement));
      ref = addr64(vaddr + ((lo - insn.ip32) | 0));
    } else if (base === Register.None) {
      const d = insn.memoryDisplacement;
      ref = this.bitness === 64 ? addr64(Number(BigInt.asIntN(64, d))) : Number(BigInt.asUintN(32, d));
    }
    if (ref < 0) return;
    out.ref = ref;
    out.refIsMemory = (info & LEA) === 0;
  }

  /** Fills the per-code table entry from the instruction just decoded. */
  private learn(code: number): number {
    const { Code, FlowControl: F, OpKind } = this.iced;
    const insn = this.insn;
    let flow: number;
    switch (code) {
      case Code.Hlt:
      case Code.Int3:
      case Code.Int1:
        flow = Flow.Halt;
        break;
      case Code.Int_imm8:
        flow = FLOW_INT_N;
        break;
      case Code.Into:
        flow = Flow.Sequential;
        break;
      case Code.Xbegin_rel16:
      case Code.Xbegin_rel32:
        flow = Flow.Branch;
        break;
      default:
        switch (insn.flowControl) {
          case F.UnconditionalBranch:
            flow = insn.isJmpFar ? Flow.IndirectJump : Flow.Jump;
            break;
          case F.ConditionalBranch:
            flow = Flow.Branch;
            break;
          case F.Call:
            flow = insn.isCallNear ? Flow.Call : insn.isCallFar ? Flow.IndirectCall : Flow.Sequential;
            break;
          case F.IndirectBranch:
            flow = Flow.IndirectJump;
            break;
          case F.IndirectCall:
            flow = Flow.IndirectCall;
            break;
          case F.Return:
            flow = Flow.Return;
            break;
          case F.Exception:
            flow = Flow.Halt;
            break;
          default:
            flow = Flow.Sequential; // Next, XABORT/XEND, INTO
        }
    }
    let imm = IMM_NONE;
    for (let i = 0; i < insn.opCount; i++) {
      const k = insn.opKind(i);
      if (k === OpKind.Immediate32 || k === OpKind.Immediate32to64) imm = IMM_32;
      else if (k === OpKind.Immediate64) imm = IMM_64;
    }
    const lea = code === Code.Lea_r16_m || code === Code.Lea_r32_m || code === Code.Lea_r64_m ? LEA : 0;
    const info = KNOWN | lea | (imm << 4) | flow;
    this.info[code] = info;
    return info;
  }

  private textFormatter(): Iced.Formatter {
    if (!this.formatter) {
      // objdump -M intel look: 0x-prefixed lowercase hex, `dword ptr` always, rip-relative shown.
      const f = new this.iced.Formatter(this.iced.FormatterSyntax.Intel);
      f.hexPrefix = '0x';
      f.hexSuffix = '';
      f.uppercaseHex = false;
      f.spaceAfterOperandSeparator = true;
      f.showBranchSize = false;
      f.branchLeadingZeros = false;
      f.ripRelativeAddresses = true;
      f.memorySizeOptions = this.iced.MemorySizeOptions.Always;
      this.formatter = f;
    }
    return this.formatter;
  }
}
