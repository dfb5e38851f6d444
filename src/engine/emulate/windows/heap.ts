// Heap blocks for HeapAlloc, malloc and everything else the API layer hands out: arenas mapped through the
// address space (so the run's memory bound counts them), first-fit reuse of freed blocks, sizes kept for
// HeapSize and realloc. Blocks are 16-byte aligned, as Windows' heap returns them.
import type { AddressSpace } from '../memory.js';
import { pageUp } from '../memory.js';
import { UC, type Cpu } from '../unicorn.js';

const ARENA = 1 << 20;
const ALIGN = 16n;

export class Heap {
  private readonly blocks = new Map<bigint, number>();
  private free: { at: bigint; size: number }[] = [];
  private next = 0n;
  private end = 0n;

  constructor(
    private readonly cpu: Cpu,
    private readonly memory: AddressSpace,
  ) {}

  /** A zeroed block of `size` bytes; throws MappingRefused over the memory bound. */
  alloc(size: number): bigint {
    const want = Number((BigInt(Math.max(size, 1)) + ALIGN - 1n) & ~(ALIGN - 1n));
    const i = this.free.findIndex((f) => f.size >= want);
    let at: bigint;
    if (i >= 0) {
      at = this.free[i]!.at;
      this.free.splice(i, 1);
      this.cpu.write(at, new Uint8Array(want));
    } else {
      if (this.next + BigInt(want) > this.end) {
        const bytes = Math.max(ARENA, Number(pageUp(BigInt(want))));
        this.next = this.memory.find(bytes);
        this.memory.map(this.next, bytes, UC.prot.read | UC.prot.write);
        this.end = this.next + BigInt(bytes);
      }
      at = this.next;
      this.next += BigInt(want);
    }
    this.blocks.set(at, want);
    return at;
  }

  /** The size of the block at `at`, or null when the heap did not hand it out. */
  size(at: bigint): number | null {
    return this.blocks.get(at) ?? null;
  }

  release(at: bigint): boolean {
    const size = this.blocks.get(at);
    if (size === undefined) return false;
    this.blocks.delete(at);
    this.free.push({ at, size });
    return true;
  }
}
