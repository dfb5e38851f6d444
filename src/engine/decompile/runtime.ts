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
