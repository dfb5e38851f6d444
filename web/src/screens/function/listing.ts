// The disassembly as one listing (a label line per block, then its instructions) and the selection the
// graph, the listing and the C share: a set of instruction addresses, from which each view derives what it
// marks. The C follows through the decompilation's line → addresses map when the server gives one.

export interface ListedBlock {
  id: number;
  min_addr: number;
  asm: readonly string[];
}

export interface AsmLine {
  /** The instruction's address; null on a block's label line. */
  addr: number | null;
  block: number;
  text: string;
}

export interface Listing {
  lines: AsmLine[];
  /** Addresses of each block's instructions. */
  blockAddrs: Map<number, number[]>;
  blockOfAddr: Map<number, number>;
}

/** The API renders each instruction as `0x10c0: push r15`. */
const INSTRUCTION = /^0x([0-9a-f]+):\s?(.*)$/i;

/** The address an instruction line of the API starts with, if any. */
export function addressOf(text: string): number | null {
  const m = INSTRUCTION.exec(text);
  return m ? parseInt(m[1]!, 16) : null;
}

export function listingOf(blocks: readonly ListedBlock[]): Listing {
  const lines: AsmLine[] = [];
  const blockAddrs = new Map<number, number[]>();
  const blockOfAddr = new Map<number, number>();
  for (const b of [...blocks].sort((x, y) => x.min_addr - y.min_addr)) {
    const addrs: number[] = [];
    lines.push({ addr: null, block: b.id, text: `loc_${b.min_addr.toString(16)}:` });
    for (const text of b.asm) {
      const m = INSTRUCTION.exec(text);
      const addr = m ? parseInt(m[1]!, 16) : null;
      if (addr !== null) {
        addrs.push(addr);
        blockOfAddr.set(addr, b.id);
      }
      lines.push({ addr, block: b.id, text: m ? `  ${m[2]}` : `  ${text}` });
    }
    blockAddrs.set(b.id, addrs);
  }
  return { lines, blockAddrs, blockOfAddr };
}

export interface Selection {
  addrs: ReadonlySet<number>;
  /** The C line clicked, marked even when it maps to no instruction. */
  cLine: number | null;
}

export const NOTHING: Selection = { addrs: new Set(), cLine: null };

/** What each view marks for a selection. */
export function marks(selection: Selection, listing: Listing, lineAddresses: readonly (readonly number[])[] | null) {
  const { addrs, cLine } = selection;
  const blocks = new Set<number>();
  for (const a of addrs) {
    const b = listing.blockOfAddr.get(a);
    if (b !== undefined) blocks.add(b);
  }
  const asm = new Set<number>();
  listing.lines.forEach((l, i) => {
    const whole = l.addr === null && (listing.blockAddrs.get(l.block) ?? []).every((a) => addrs.has(a));
    if ((l.addr !== null && addrs.has(l.addr)) || (whole && blocks.has(l.block))) asm.add(i);
  });
  const c = new Set<number>();
  if (cLine !== null) c.add(cLine);
  else if (lineAddresses && addrs.size > 0)
    lineAddresses.forEach((line, i) => {
      if (line.some((a) => addrs.has(a))) c.add(i);
    });
  return { blocks, asm, c };
}

function isAddressMap(v: unknown): v is number[][] {
  return Array.isArray(v) && v.every((line) => Array.isArray(line) && line.every((a) => typeof a === 'number'));
}

/**
 * The decompilation's `line_addresses` (Binlens: per line of C, the instructions it came from; null when the C
 * is a language model's rewrite), read without trusting the generated types to have it yet.
 */
export function lineAddressesOf(task: object): number[][] | null {
  const v = 'line_addresses' in task ? task.line_addresses : null;
  return isAddressMap(v) ? v : null;
}
