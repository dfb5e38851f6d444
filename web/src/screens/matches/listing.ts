// Lines of a function as the comparison shows them, with the key each is compared by.
import type { paths } from '../../api/schema';

type Blocks = NonNullable<
  paths['/v2/functions/{function_id}/blocks']['get']['responses'][200]['content']['application/json']['data']
>;

export interface Listing {
  /** What a gutter shows before each line (its address), or nothing. */
  gutter: string[] | null;
  lines: string[];
  keys: string[];
}

const ADDRESS = /^0x([0-9a-f]+):\s*/i;

/**
 * Two copies of a function sit at different addresses: a line is compared without its own address, its
 * ` ; name` note (the stripped side calls `sub_…` what the other names) or any longer hex number (targets,
 * rip offsets). Short immediates (`0x10`) stay: they are most often the same constant.
 */
const asmKey = (text: string) =>
  text
    .replace(/\s;.*$/, '')
    .replace(/0x[0-9a-f]{3,}/gi, '0x…')
    .replace(/\s+/g, ' ')
    .trim();

/** The function's instructions in address order, each line's address in the gutter. */
export function asmListing(blocks: Blocks): Listing {
  const lines: string[] = [];
  const gutter: string[] = [];
  for (const block of [...blocks.blocks].sort((x, y) => x.min_addr - y.min_addr))
    for (const line of block.asm) {
      const address = ADDRESS.exec(line);
      gutter.push(address ? `0x${address[1]}` : '');
      lines.push(address ? line.slice(address[0].length) : line);
    }
  return { gutter, lines, keys: lines.map(asmKey) };
}

/** Decompiled C, compared by its text less indentation. */
export function cListing(source: string): Listing {
  const lines = source.replace(/\n$/, '').split('\n');
  return { gutter: null, lines, keys: lines.map((l) => l.replace(/\s+/g, ' ').trim()) };
}
