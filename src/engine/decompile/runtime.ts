// Helper definitions the output uses, written once each, only when used: bit-exact conversions between
// integers and floating point, the 16-byte register struct, rotations, parity. Standard C only; names carry
// the `bl_` prefix so they cannot meet the program's own.
import { operand } from './c-names.js';

const HELPERS: Record<string, { deps?: string[]; text: string }> = {
  v128: { text: 'struct v128 { uint64_t lo, hi; };' },
  f64: { text: 'static double bl_f64(uint64_t u) { double d; memcpy(&d, &u, 8); return d; }' },
  b64: { text: 'static uint64_t bl_b64(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }' },
  f32: { text: 'static float bl_f32(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }' },
  b32: { text: 'static uint32_t bl_b32(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }' },
  // MIPS's unaligned word halves, byte by byte (only the bytes the instruction touches): `a` the address,
  // `big` the byte order; lwl/lwr merge into rt, swl/swr store rt's bytes.
  lwl: {
    text:
      'static uint32_t bl_lwl(uint32_t rt, uintptr_t a, int big) { unsigned k = a & 3; const uint8_t *p = (const uint8_t *)a; ' +
      'for (unsigned i = 0; i <= (big ? 3 - k : k); i++) { unsigned s = 8 * (big ? 3 - i : 3 - k + i); ' +
      'rt = (rt & ~(0xffu << s)) | (uint32_t)(big ? p[i] : p[(long)i - (long)k]) << s; } return rt; }',
  },
  lwr: {
    text:
      'static uint32_t bl_lwr(uint32_t rt, uintptr_t a, int big) { unsigned k = a & 3; const uint8_t *p = (const uint8_t *)a; ' +
      'for (unsigned i = 0; i <= (big ? k : 3 - k); i++) { unsigned s = 8 * i; ' +
      'rt = (rt & ~(0xffu << s)) | (uint32_t)(big ? p[-(long)i] : p[i]) << s; } return rt; }',
  },
  swl: {
    text:
      'static void bl_swl(uintptr_t a, uint32_t rt, int big) { unsigned k = a & 3; uint8_t *p = (uint8_t *)a; ' +
      'for (unsigned i = 0; i <= (big ? 3 - k : k); i++) ' +
      'if (big) p[i] = (uint8_t)(rt >> (8 * (3 - i))); else p[(long)i - (long)k] = (uint8_t)(rt >> (8 * (3 - k + i))); }',
  },
  swr: {
    text:
      'static void bl_swr(uintptr_t a, uint32_t rt, int big) { unsigned k = a & 3; uint8_t *p = (uint8_t *)a; ' +
      'for (unsigned i = 0; i <= (big ? k : 3 - k); i++) ' +
      'if (big) p[-(long)i] = (uint8_t)(rt >> (8 * i)); else p[i] = (uint8_t)(rt >> (8 * i)); }',
  },
  pmovmskb: {
    deps: ['v128'],
    text: 'static uint32_t bl_pmovmskb(struct v128 a) { uint8_t p[16]; memcpy(p, &a, 16); uint32_t m = 0; for (int i = 0; i < 16; i++) m |= (uint32_t)(p[i] >> 7) << i; return m; }',
  },
  pextrw: {
    deps: ['v128'],
    text: 'static uint32_t bl_pextrw(struct v128 a, uint8_t imm) { uint16_t p[8]; memcpy(p, &a, 16); return p[imm & 7]; }',
  },
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
  rbit: {
    text: 'static uint64_t bl_rbit(uint64_t x, unsigned bits) { uint64_t r = 0; for (unsigned i = 0; i < bits; i++) r |= ((x >> i) & 1) << (bits - 1 - i); return r; }',
  },
  rev16: {
    text: 'static uint64_t bl_rev16(uint64_t x, unsigned bits) { uint64_t r = 0; for (unsigned i = 0; i < bits; i += 16) r |= ((x >> (i + 8)) & 0xff) << i | ((x >> i) & 0xff) << (i + 8); return r; }',
  },
  rev32: {
    deps: ['bswap'],
    text: 'static uint64_t bl_rev32(uint64_t x, unsigned bits) { (void)bits; return bl_bswap(x & 0xffffffffu, 4) | bl_bswap(x >> 32, 4) << 32; }',
  },
  cls: {
    text: 'static uint64_t bl_cls(uint64_t x, unsigned bits) { unsigned top = (x >> (bits - 1)) & 1, n = 0; while (n + 1 < bits && ((x >> (bits - 2 - n)) & 1) == top) n++; return n; }',
  },
  mulhu: {
    text: 'static uint64_t bl_mulhu(uint64_t a, uint64_t b, unsigned bits) { if (bits < 64) return (a * b) >> bits; uint64_t al = a & 0xffffffffu, ah = a >> 32, bl = b & 0xffffffffu, bh = b >> 32; uint64_t ll = al * bl, lh = al * bh, hl = ah * bl; uint64_t mid = (ll >> 32) + (lh & 0xffffffffu) + (hl & 0xffffffffu); return ah * bh + (lh >> 32) + (hl >> 32) + (mid >> 32); }',
  },
  mulhs: {
    deps: ['mulhu'],
    text: 'static uint64_t bl_mulhs(uint64_t a, uint64_t b, unsigned bits) { uint64_t m = bits == 64 ? ~0ull : (1ull << bits) - 1, sign = 1ull << (bits - 1); uint64_t h = bl_mulhu(a & m, b & m, bits); if (a & sign) h -= b; if (b & sign) h -= a; return h & m; }',
  },
  // Whether the signed product of two `bits`-bit values overflows them (imul's carry and overflow).
  smulo: {
    text: 'static int bl_smulo(int64_t a, int64_t b, unsigned bits) { if (bits < 64) { int64_t p = a * b, lim = (int64_t)1 << (bits - 1); return p < -lim || p >= lim; } if (a == 0 || b == 0) return 0; if (a == -1) return b == INT64_MIN; if (b == -1) return a == INT64_MIN; return (int64_t)((uint64_t)a * (uint64_t)b) / b != a; }',
  },
  // x87 operations: fabs (the sign cleared, so -0 is 0) and fist's rounding to nearest, ties to even.
  fabs80: { text: 'static long double bl_fabs80(long double x) { return x < 0 ? -x : x == 0 ? 0.0L : x; }' },
  frint80: {
    text: 'static long double bl_frint80(long double x) { if (!(x > -9.2e18L && x < 9.2e18L)) return x; long double t = (long double)(int64_t)x, d = x - t; int odd = (int64_t)t & 1; if (d > 0.5L || (d == 0.5L && odd)) t += 1; else if (d < -0.5L || (d == -0.5L && odd)) t -= 1; return t; }',
  },
  gethi: { deps: ['v128'], text: 'static uint64_t bl_gethi(struct v128 a) { return a.hi; }' },
  rotl: {
    text: 'static uint64_t bl_rotl(uint64_t x, unsigned n, unsigned bits) { n %= bits; uint64_t m = bits == 64 ? ~0ull : (1ull << bits) - 1; x &= m; return n ? ((x << n) | (x >> (bits - n))) & m : x; }',
  },
  rotr: {
    text: 'static uint64_t bl_rotr(uint64_t x, unsigned n, unsigned bits) { n %= bits; uint64_t m = bits == 64 ? ~0ull : (1ull << bits) - 1; x &= m; return n ? ((x >> n) | (x << (bits - n))) & m : x; }',
  },
};

/** C's floating-point type of a `w`-byte value: float, double, or long double for an x87 value. */
export const floatType = (w: number): string => (w === 4 ? 'float' : w === 8 ? 'double' : 'long double');

/**
 * A value held as its bits (the width's unsigned type) as the floating-point number it is, and back. An
 * x87 value is held as a long double already.
 */
export function asFloat(rt: Runtime, text: string, w: number): string {
  if (w === 10) return operand(text);
  rt.use(w === 4 ? 'f32' : 'f64');
  return `bl_f${w * 8}(${text})`;
}
export function asBits(rt: Runtime, text: string, w: number): string {
  if (w === 10) return operand(text);
  rt.use(w === 4 ? 'b32' : 'b64');
  return `bl_b${w * 8}(${text})`;
}

/** Lane widths in bits by the mnemonic's suffix. */
const LANE: Record<string, number> = { b: 8, w: 16, d: 32, q: 64 };

/**
 * The SSE operations the x86 lifter names (lift-x86.ts LANES, SHUFFLES), each as a function over the
 * struct's bytes viewed as lanes: `bl_<mnemonic>`.
 */
function packedHelper(name: string): string | null {
  const head = (args: string) => `static struct v128 bl_${name}(${args}) {`;
  const lanes = (bits: number) => `uint${bits}_t`;
  const view = (bits: number, v: string, arr: string) =>
    `${lanes(bits)} ${arr}[${128 / bits}]; memcpy(${arr}, &${v}, 16);`;
  const back = 'memcpy(&a, x, 16); return a; }';
  let m = /^p(add|sub)([bwdq])$/.exec(name);
  if (m) {
    const b = LANE[m[2]!]!;
    return `${head('struct v128 a, struct v128 b')} ${view(b, 'a', 'x')} ${view(b, 'b', 'y')} for (int i = 0; i < ${128 / b}; i++) x[i] ${m[1] === 'add' ? '+' : '-'}= y[i]; ${back}`;
  }
  m = /^pcmp(eq|gt)([bwd])$/.exec(name);
  if (m) {
    const b = LANE[m[2]!]!;
    const test = m[1] === 'eq' ? 'x[i] == y[i]' : `(int${b}_t)x[i] > (int${b}_t)y[i]`;
    return `${head('struct v128 a, struct v128 b')} ${view(b, 'a', 'x')} ${view(b, 'b', 'y')} for (int i = 0; i < ${128 / b}; i++) x[i] = ${test} ? (${lanes(b)})~(${lanes(b)})0 : 0; ${back}`;
  }
  m = /^p(min|max)([us])([bw])$/.exec(name);
  if (m) {
    const b = LANE[m[3]!]!;
    const t = m[2] === 's' ? `int${b}_t` : lanes(b);
    const pick = `(${t})y[i] ${m[1] === 'min' ? '<' : '>'} (${t})x[i]`;
    return `${head('struct v128 a, struct v128 b')} ${view(b, 'a', 'x')} ${view(b, 'b', 'y')} for (int i = 0; i < ${128 / b}; i++) if (${pick}) x[i] = y[i]; ${back}`;
  }
  if (name === 'pmuludq')
    return `${head('struct v128 a, struct v128 b')} a.lo = (uint64_t)(uint32_t)a.lo * (uint32_t)b.lo; a.hi = (uint64_t)(uint32_t)a.hi * (uint32_t)b.hi; return a; }`;
  if (name === 'pmulld')
    return `${head('struct v128 a, struct v128 b')} ${view(32, 'a', 'x')} ${view(32, 'b', 'y')} for (int i = 0; i < 4; i++) x[i] *= y[i]; ${back}`;
  const unpack: Record<string, string> = {
    unpcklps: 'punpckldq',
    unpckhps: 'punpckhdq',
    unpcklpd: 'punpcklqdq',
    unpckhpd: 'punpckhqdq',
  };
  m = /^punpck([lh])(bw|wd|dq|qdq)$/.exec(unpack[name] ?? name);
  if (m) {
    const b = { bw: 8, wd: 16, dq: 32, qdq: 64 }[m[2]!]!;
    const n = 128 / b;
    const from = m[1] === 'l' ? 0 : n / 2;
    return `${head('struct v128 a, struct v128 b')} ${view(b, 'a', 'p')} ${view(b, 'b', 'y')} ${lanes(b)} x[${n}]; for (int i = 0; i < ${n / 2}; i++) { x[2 * i] = p[${from} + i]; x[2 * i + 1] = y[${from} + i]; } ${back}`;
  }
  m = /^ps(ll|rl|ra)([wdq])$/.exec(name);
  if (m) {
    const b = LANE[m[2]!]!;
    const shift =
      m[1] === 'll'
        ? `x[i] = n >= ${b} ? 0 : (${lanes(b)})(x[i] << n)`
        : m[1] === 'rl'
          ? `x[i] = n >= ${b} ? 0 : x[i] >> n`
          : `x[i] = (${lanes(b)})((int${b}_t)x[i] >> (n >= ${b} ? ${b - 1} : n))`;
    return `${head('struct v128 a, struct v128 c')} uint64_t n = c.lo; ${view(b, 'a', 'x')} for (int i = 0; i < ${128 / b}; i++) ${shift}; ${back}`;
  }
  if (name === 'pslldq' || name === 'psrldq') {
    const body =
      name === 'pslldq'
        ? 'for (int i = 0; i < 16; i++) x[i] = i >= (int)n ? p[i - n] : 0;'
        : 'for (int i = 0; i < 16; i++) x[i] = i + n < 16 ? p[i + n] : 0;';
    return `${head('struct v128 a, struct v128 c')} unsigned n = c.lo > 16 ? 16 : (unsigned)c.lo; ${view(8, 'a', 'p')} uint8_t x[16]; ${body} ${back}`;
  }
  if (name === 'pshufd')
    return `${head('struct v128 a, uint8_t imm')} ${view(32, 'a', 'p')} uint32_t x[4]; for (int i = 0; i < 4; i++) x[i] = p[(imm >> (2 * i)) & 3]; ${back}`;
  if (name === 'pshuflw' || name === 'pshufhw') {
    const base = name === 'pshuflw' ? 0 : 4;
    return `${head('struct v128 a, uint8_t imm')} ${view(16, 'a', 'p')} uint16_t x[8]; memcpy(x, p, 16); for (int i = 0; i < 4; i++) x[${base} + i] = p[${base} + ((imm >> (2 * i)) & 3)]; ${back}`;
  }
  if (name === 'shufps')
    return `${head('struct v128 a, struct v128 b, uint8_t imm')} ${view(32, 'a', 'p')} ${view(32, 'b', 'q')} uint32_t x[4] = { p[imm & 3], p[(imm >> 2) & 3], q[(imm >> 4) & 3], q[(imm >> 6) & 3] }; ${back}`;
  if (name === 'pinsrw')
    return `${head('struct v128 a, uint64_t v, uint8_t imm')} ${view(16, 'a', 'x')} x[imm & 7] = (uint16_t)v; ${back}`;
  if (name === 'shufpd')
    return `${head('struct v128 a, struct v128 b, uint8_t imm')} uint64_t lo = imm & 1 ? a.hi : a.lo, hi = imm & 2 ? b.hi : b.lo; a.lo = lo; a.hi = hi; return a; }`;
  if (name === 'subpd')
    return `${head('struct v128 a, struct v128 b')} double x[2], y[2]; memcpy(x, &a, 16); memcpy(y, &b, 16); x[0] -= y[0]; x[1] -= y[1]; ${back}`;
  if (name === 'cvtdq2pd')
    return `${head('uint64_t v')} struct v128 a; double x[2] = { (double)(int32_t)(uint32_t)v, (double)(int32_t)(uint32_t)(v >> 32) }; ${back}`;
  // Truncating conversions: a value out of int32's range (or NaN) is the "integer indefinite" 0x80000000.
  if (name === 'cvttpd2dq')
    return `${head('struct v128 a')} double d[2]; memcpy(d, &a, 16); uint32_t x[4] = {0, 0, 0, 0}; for (int i = 0; i < 2; i++) x[i] = d[i] > -2147483649.0 && d[i] < 2147483648.0 ? (uint32_t)(int32_t)d[i] : 0x80000000u; ${back}`;
  if (name === 'cvttps2dq')
    return `${head('struct v128 a')} float f[4]; memcpy(f, &a, 16); uint32_t x[4]; for (int i = 0; i < 4; i++) x[i] = f[i] >= -2147483648.0f && f[i] < 2147483648.0f ? (uint32_t)(int32_t)f[i] : 0x80000000u; ${back}`;
  // minsd/maxsd: the source unless the destination is strictly less (greater) — so a NaN gives the source.
  if (name === 'minsd' || name === 'maxsd')
    return `${head('struct v128 a, uint64_t b')} double x, y; memcpy(&x, &a.lo, 8); memcpy(&y, &b, 8); if (!(x ${name === 'minsd' ? '<' : '>'} y)) a.lo = b; return a; }`;
  if (name === 'packuswb')
    return `${head('struct v128 a, struct v128 b')} ${view(16, 'a', 'p')} ${view(16, 'b', 'q')} uint8_t x[16]; for (int i = 0; i < 8; i++) { int16_t s = (int16_t)p[i], t = (int16_t)q[i]; x[i] = s < 0 ? 0 : s > 255 ? 255 : (uint8_t)s; x[8 + i] = t < 0 ? 0 : t > 255 ? 255 : (uint8_t)t; } ${back}`;
  if (name === 'cmpsd')
    // The predicate (imm & 7): eq, lt, le, unord, neq, nlt, nle, ord; the low lane all ones when it holds.
    return `${head('struct v128 a, uint64_t b, uint8_t imm')} double x, y; memcpy(&x, &a.lo, 8); memcpy(&y, &b, 8); int u = x != x || y != y, r; switch (imm & 7) { case 0: r = x == y; break; case 1: r = x < y; break; case 2: r = x <= y; break; case 3: r = u; break; case 4: r = !(x == y); break; case 5: r = !(x < y); break; case 6: r = !(x <= y); break; default: r = !u; } a.lo = r ? ~0ull : 0; return a; }`;
  if (name === 'sethi') return `${head('struct v128 a, uint64_t b')} a.hi = b; return a; }`;
  if (name === 'setlo') return `${head('struct v128 a, uint64_t b')} a.lo = b; return a; }`;
  if (name === 'movhlps') return `${head('struct v128 a, struct v128 b')} a.lo = b.hi; return a; }`;
  if (name === 'movlhps') return `${head('struct v128 a, struct v128 b')} a.hi = b.lo; return a; }`;
  return null;
}

/** Whether `name` is an SSE operation the output can state. */
export const isPacked = (name: string): boolean => packedHelper(name) !== null;

export type Helper = keyof typeof HELPERS;

/** The helpers one output needs, in an order where each follows what it uses. */
export class Runtime {
  private readonly used = new Set<string>();

  use(name: Helper): void {
    if (this.used.has(name)) return;
    for (const d of HELPERS[name]!.deps ?? []) this.use(d as Helper);
    this.used.add(name);
  }

  /** An SSE operation's helper (isPacked says which exist). */
  usePacked(name: string): void {
    this.use('v128');
    this.used.add(`packed:${name}`);
  }

  text(): string {
    return [...this.used]
      .map((n) => (n.startsWith('packed:') ? packedHelper(n.slice(7))! : HELPERS[n]!.text))
      .join('\n');
  }
}
