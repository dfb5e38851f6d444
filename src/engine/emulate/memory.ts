// The guest's address space as the kernel sees it: what is mapped (for mmap, brk and the memory cap) on
// top of the emulator's own pages. Every mapping is counted against the run's memory limit.
import { UC, type Cpu } from './unicorn.js';

export const PAGE = 0x1000;
export const pageDown = (a: bigint) => a & ~BigInt(PAGE - 1);
export const pageUp = (a: bigint) => (a + BigInt(PAGE - 1)) & ~BigInt(PAGE - 1);

/** Where anonymous mappings go when the guest lets the system choose (a 64-bit address space's). */
const MMAP_BASE = 0x7f00_0000_0000n;

export interface Perms {
  read: boolean;
  write: boolean;
  exec: boolean;
}

export const permsOf = (p: Perms): number =>
  (p.read ? UC.prot.read : 0) | (p.write ? UC.prot.write : 0) | (p.exec ? UC.prot.exec : 0);

/** A refused mapping: over the run's memory limit, or over a hole that is not free. */
export class MappingRefused extends Error {}

export class AddressSpace {
  /** Mapped ranges [start, end), page aligned, sorted by start. */
  private ranges: { start: bigint; end: bigint; perms: number }[] = [];
  private mapped = 0;
  private nextMmap: bigint;
  /** Program break: its start (after the executable) and where it is now. */
  brkStart = 0n;
  brk = 0n;

  constructor(
    private readonly cpu: Cpu,
    /** Bytes the guest may have mapped at once. */
    private readonly limit: number,
    /** Where mappings the system places start (a 32-bit program's must be below 4 GiB). */
    mmapBase = MMAP_BASE,
  ) {
    this.nextMmap = mmapBase;
  }

  get mappedBytes(): number {
    return this.mapped;
  }

  /** Maps [start, start+size) (page aligned), zeroed; refused over the limit or over a mapped page. */
  map(start: bigint, size: number, perms: number): void {
    const s = pageDown(start);
    const e = pageUp(start + BigInt(size));
    const bytes = Number(e - s);
    if (this.mapped + bytes > this.limit) throw new MappingRefused(`memory limit of ${this.limit} bytes`);
    if (this.ranges.some((r) => r.start < e && s < r.end)) throw new MappingRefused('address in use');
    this.cpu.map(s, bytes, perms);
    this.ranges.push({ start: s, end: e, perms });
    this.ranges.sort((a, b) => (a.start < b.start ? -1 : 1));
    this.mapped += bytes;
  }

  /** A free range of `size` bytes above the mmap base. */
  find(size: number): bigint {
    let at = this.nextMmap;
    for (const r of this.ranges) if (r.start < at + BigInt(size) && at < r.end) at = r.end;
    this.nextMmap = pageUp(at + BigInt(size));
    return at;
  }

  /** New rights for the mapped pages of [start, start+size) (mprotect); false when none are mapped. */
  protect(start: bigint, size: number, perms: number): boolean {
    const s = pageDown(start);
    const e = pageUp(start + BigInt(size));
    let any = false;
    for (const r of this.ranges) {
      const lo = r.start > s ? r.start : s;
      const hi = r.end < e ? r.end : e;
      if (lo >= hi) continue;
      this.cpu.protect(lo, Number(hi - lo), perms);
      any = true;
    }
    return any;
  }

  /** Unmaps the pages of [start, start+size) that are mapped. */
  unmap(start: bigint, size: number): void {
    const s = pageDown(start);
    const e = pageUp(start + BigInt(size));
    for (let i = this.ranges.length - 1; i >= 0; i--) {
      const r = this.ranges[i]!;
      const lo = r.start > s ? r.start : s;
      const hi = r.end < e ? r.end : e;
      if (lo >= hi) continue;
      this.cpu.unmap(lo, Number(hi - lo));
      this.mapped -= Number(hi - lo);
      const pieces = [
        ...(r.start < lo ? [{ start: r.start, end: lo, perms: r.perms }] : []),
        ...(hi < r.end ? [{ start: hi, end: r.end, perms: r.perms }] : []),
      ];
      this.ranges.splice(i, 1, ...pieces);
    }
  }

  /** Everything mapped, with its bytes: a forked child runs on it and the parent gets it back. */
  snapshot(): AddressSnapshot {
    return {
      ranges: this.ranges.map((r) => ({ ...r, bytes: this.cpu.read(r.start, Number(r.end - r.start))! })),
      brk: this.brk,
      nextMmap: this.nextMmap,
    };
  }

  restore(snap: AddressSnapshot): void {
    for (const r of this.ranges) this.cpu.unmap(r.start, Number(r.end - r.start));
    this.ranges = snap.ranges.map(({ start, end, perms }) => ({ start, end, perms }));
    this.mapped = 0;
    for (const r of snap.ranges) {
      this.cpu.map(r.start, r.bytes.length, r.perms);
      this.cpu.write(r.start, r.bytes);
      this.mapped += r.bytes.length;
    }
    this.brk = snap.brk;
    this.nextMmap = snap.nextMmap;
  }
}

export interface AddressSnapshot {
  ranges: { start: bigint; end: bigint; perms: number; bytes: Uint8Array }[];
  brk: bigint;
  nextMmap: bigint;
}
