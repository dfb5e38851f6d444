// Memory accesses through typed pointers as C writes them: `p->len` for a structure's member at its
// offset, `p[i]` / `p[3]` / `*p` for an element of a pointer to a scalar of the access's width. A pointer is
// a typed parameter on entry, a typed local or member or element loaded, or a register variable holding
// one (typed-pointers.ts finds those; it is cast where it is read).
import type { DataFlow } from '../ir/dataflow.js';
import type { Expr } from '../ir/ir.js';
import { operand } from './c-names.js';
import { typedPointers, UNKNOWN } from './typed-pointers.js';
import type { PointerTarget, Typings, ValueC } from './typing.js';

/** What the translation of one function tells the accesses. */
export interface AccessContext {
  df: DataFlow;
  typings: Typings;
  /** The typed local a `w`-byte access at `addr` is. */
  local(addr: Expr, w: number): { name: string; type: ValueC | null } | null;
  /** The parameter an argument register holds on entry. */
  param(r: number): { name: string; type: ValueC | null } | null;
  /** The definition written at its use instead of into the register's variable. */
  inlined(r: number, ver: number): Expr | undefined;
  /** The register's variable, when a read of `e`'s width is the whole variable; else null. */
  variable(e: Extract<Expr, { k: 'reg' }>): string | null;
}

/** An access as C: the lvalue, its declared type, and whether it may be assigned. */
export interface TypedLvalue {
  text: string;
  type: ValueC;
  readOnly: boolean;
}

type Shape = { base: Expr; member: number } | { base: Expr; index: Expr | number };

/** Levels of pointers through pointers followed. */
const MAX_DEPTH = 8;

export class TypedAccess {
  private versions: Map<string, string> | null = null;

  constructor(private readonly c: AccessContext) {}

  /** The lvalue a `w`-byte access at `addr` is through a typed pointer; `expr` writes an index. */
  at(addr: Expr, w: number, expr: (e: Expr) => string, depth = 0): TypedLvalue | null {
    if (depth > MAX_DEPTH) return null;
    for (const s of shapes(addr, w)) {
      const p = this.pointer(s.base, expr, depth + 1);
      const found = p && this.reached(p.target, s, w);
      if (!found) continue;
      const { readOnly } = p.target;
      if ('member' in s) return { text: `${p.text}->${found.path}`, type: found.type, readOnly };
      const text =
        s.index === 0
          ? `*${operand(p.text)}`
          : `${operand(p.text)}[${typeof s.index === 'number' ? s.index : expr(s.index)}]`;
      return { text, type: found.type, readOnly };
    }
    return null;
  }

  /** What a `w`-byte access of `shape` reaches through a pointer to `target`: a member (with its path), an element. */
  private reached(target: PointerTarget, shape: Shape, w: number): { type: ValueC; path: string } | null {
    const found =
      'member' in shape
        ? target.struct
          ? this.c.typings.structs.get(target.struct)?.fields.get(shape.member)
          : undefined
        : target.elem && { type: target.elem, path: '' };
    return found && found.type.size === w ? found : null;
  }

  /** `e` as a C expression of a typed pointer's type, with what it points to; else null. */
  private pointer(e: Expr, expr: (e: Expr) => string, depth: number): { text: string; target: PointerTarget } | null {
    if (depth > MAX_DEPTH) return null;
    if (e.k === 'load') {
      const local = this.c.local(e.addr, e.w);
      const loaded = local ? { text: local.name, type: local.type } : this.at(e.addr, e.w, expr, depth + 1);
      const target = loaded?.type?.target;
      return target ? { text: loaded.text, target } : null;
    }
    if (e.k !== 'reg') return null;
    const def = this.c.inlined(e.r, e.ver);
    if (def) return this.pointer(def, expr, depth + 1);
    const param = e.ver === 0 ? this.c.param(e.r) : null;
    if (param) {
      const target = param.type?.target;
      return target && e.w === param.type!.size ? { text: param.name, target } : null;
    }
    const key = this.pointerVersions().get(`${e.r}:${e.ver}`);
    const target = key === undefined ? undefined : this.c.typings.targets.get(key);
    const v = target ? this.c.variable(e) : null;
    return v ? { text: `((${target!.pointer})(uintptr_t)${v})`, target: target! } : null;
  }

  /** The register versions holding typed pointers, by `r:ver`: their targets' keys. */
  private pointerVersions(): Map<string, string> {
    this.versions ??= typedPointers(this.c.df, {
      entry: (r) => this.c.param(r)?.type?.target?.key ?? null,
      loaded: (addr, w, keyOf) => {
        const local = this.c.local(addr, w);
        if (local) return local.type?.target?.key ?? null;
        let unknown = false;
        for (const s of shapes(addr, w)) {
          const key = keyOf(s.base);
          if (key === UNKNOWN) unknown = true;
          const target = key === null || key === UNKNOWN ? undefined : this.c.typings.targets.get(key);
          const found = target && this.reached(target, s, w);
          if (found) return found.type.target?.key ?? null;
        }
        return unknown ? UNKNOWN : null;
      },
      moved: (e, keyOf) => {
        if (e.op !== 'add' && e.op !== 'sub') return null;
        for (const [base, by] of e.op === 'add' ? [[e.a, e.b] as const, [e.b, e.a] as const] : [[e.a, e.b] as const]) {
          const key = keyOf(base);
          if (key === UNKNOWN) return UNKNOWN;
          const elem = key === null ? null : this.c.typings.targets.get(key)?.elem;
          if (!elem) continue;
          const whole = by.k === 'const' ? BigInt.asIntN(64, by.v) % BigInt(elem.size) === 0n : unscaled(by, elem.size);
          if (whole) return key;
        }
        return null;
      },
    });
    return this.versions;
  }
}

/**
 * The ways a `w`-byte access at `addr` can be read: base plus a constant (a member, or an element when it
 * is a multiple of the width), base plus an index scaled by the width (either operand the base).
 */
function shapes(addr: Expr, w: number): Shape[] {
  if (addr.k !== 'bin' || addr.op !== 'add')
    return [
      { base: addr, member: 0 },
      { base: addr, index: 0 },
    ];
  if (addr.b.k === 'const') {
    const off = Number(BigInt.asIntN(addr.w * 8, addr.b.v));
    const out: Shape[] = [{ base: addr.a, member: off }];
    if (off % w === 0) out.push({ base: addr.a, index: off / w });
    return out;
  }
  const out: Shape[] = [];
  for (const [base, i] of [
    [addr.a, addr.b],
    [addr.b, addr.a],
  ] as const) {
    const index = unscaled(i, w);
    if (index) out.push({ base, index });
  }
  return out;
}

/** `e` without its scaling by `w` (`i * 4`, `i << 2`; anything for bytes), or null. */
function unscaled(e: Expr, w: number): Expr | null {
  if (w === 1) return e;
  if (e.k !== 'bin' || e.b.k !== 'const') return null;
  const k = Number(e.b.v);
  if (e.op === 'mul' && k === w) return e.a;
  if (e.op === 'shl' && 1 << k === w) return e.a;
  return null;
}
