// Helper definitions the output uses, written once each, only when used: bit-exact conversions between
// integers and floating point, the 16-byte register struct, rotations, parity. Standard C only; names carry
// the `bl_` prefix so they cannot meet the program's own.
const HELPERS: Record<string, { deps?: string[]; text: string }> = {
  v128: { text: 'struct v128 { uint64_t lo, hi; };' },
  f64: { text: 'static double bl_f64(uint64_t u) { double d; memcpy(&d, &u, 8); return d; }' },
  b64: { text: 'static uint64_t bl_b64(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }' },
  f32: { text: 'static float bl_f32(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }' },
  b32: { text: 'static uint32_t bl_b32(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }' },
  parity: {
    text: 'static int bl_parity(uint8_t x) { x ^= x >> 4; x ^= x >> 2; x ^= x >> 1; return !(x & 1); }',
  },
  dep32: {
    deps: ['v128'],
    text: 'static struct v128 bl_dep32(struct v128 a, uint32_t b) { a.lo = (a.lo & 0xffffffff00000000ull) | b; return a; }',
  },
  dep64: {
    deps: ['v128'],
    text: 'static struct v128 bl_dep64(struct v128 a, uint64_t b) { a.lo = b; return a; }',
  },
  vand: {
    deps: ['v128'],
    text: 'static struct v128 bl_vand(struct v128 a, struct v128 b) { a.lo &= b.lo; a.hi &= b.hi; return a; }',
  },
  vor: {
    deps: ['v128'],
    text: 'static struct v128 bl_vor(struct v128 a, struct v128 b) { a.lo |= b.lo; a.hi |= b.hi; return a; }',
  },
  vxor: {
    deps: ['v128'],
    text: 'static struct v128 bl_vxor(struct v128 a, struct v128 b) { a.lo ^= b.lo; a.hi ^= b.hi; return a; }',
  },
  vnot: { deps: ['v128'], text: 'static struct v128 bl_vnot(struct v128 a) { a.lo = ~a.lo; a.hi = ~a.hi; return a; }' },
  tzcnt: {
    text: 'static uint64_t bl_tzcnt(uint64_t x, unsigned bits) { unsigned n = 0; while (n < bits && !((x >> n) & 1)) n++; return n; }',
  },
  lzcnt: {
    text: 'static uint64_t bl_lzcnt(uint64_t x, unsigned bits) { unsigned n = 0; while (n < bits && !((x >> (bits - 1 - n)) & 1)) n++; return n; }',
  },
  bsr: {
    deps: ['lzcnt'],
    text: 'static uint64_t bl_bsr(uint64_t x, unsigned bits) { return bits - 1 - bl_lzcnt(x, bits); }',
  },
  popcnt: {
    text: 'static uint64_t bl_popcnt(uint64_t x, unsigned bits) { unsigned n = 0; for (unsigned i = 0; i < bits; i++) n += (x >> i) & 1; return n; }',
  },
  bswap: {
    text: 'static uint64_t bl_bswap(uint64_t x, unsigned bytes) { uint64_t r = 0; for (unsigned i = 0; i < bytes; i++) r = (r << 8) | ((x >> (8 * i)) & 0xff); return r; }',
  },
  mulhu: {
    text: 'static uint64_t bl_mulhu(uint64_t a, uint64_t b, unsigned bits) { if (bits < 64) return (a * b) >> bits; uint64_t al = a & 0xffffffffu, ah = a >> 32, bl = b & 0xffffffffu, bh = b >> 32; uint64_t ll = al * bl, lh = al * bh, hl = ah * bl; uint64_t mid = (ll >> 32) + (lh & 0xffffffffu) + (hl & 0xffffffffu); return ah * bh + (lh >> 32) + (hl >> 32) + (mid >> 32); }',
  },
  mulhs: {
    deps: ['mulhu'],
    text: 'static uint64_t bl_mulhs(uint64_t a, uint64_t b, unsigned bits) { uint64_t m = bits == 64 ? ~0ull : (1ull << bits) - 1, sign = 1ull << (bits - 1); uint64_t h = bl_mulhu(a & m, b & m, bits); if (a & sign) h -= b; if (b & sign) h -= a; return h & m; }',
  },
  rotl: {
    text: 'static uint64_t bl_rotl(uint64_t x, unsigned n, unsigned bits) { n %= bits; uint64_t m = bits == 64 ? ~0ull : (1ull << bits) - 1; x &= m; return n ? ((x << n) | (x >> (bits - n))) & m : x; }',
  },
  rotr: {
    text: 'static uint64_t bl_rotr(uint64_t x, unsigned n, unsigned bits) { n %= bits; uint64_t m = bits == 64 ? ~0ull : (1ull << bits) - 1; x &= m; return n ? ((x >> n) | (x << (bits - n))) & m : x; }',
  },
};

export type Helper = keyof typeof HELPERS;

/** The helpers one output needs, in an order where each follows what it uses. */
export class Runtime {
  private readonly used = new Set<string>();

  use(name: Helper): void {
    if (this.used.has(name)) return;
    for (const d of HELPERS[name]!.deps ?? []) this.use(d as Helper);
    this.used.add(name);
  }

  text(): string {
    return [...this.used].map((n) => HELPERS[n]!.text).join('\n');
  }
}
