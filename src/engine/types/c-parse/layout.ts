// Natural-alignment layout of structures and unions: each member at the next multiple of its alignment,
// the whole rounded up to the largest. This is the layout of every 64-bit ABI and of Win32. i386 SysV
// differs only in aligning double and 8-byte integers to 4 inside structures; the database declares no
// i386 Linux structure that has one.
import { resolve, type CType, type Member, type TypeDefinition } from '../ctype.js';

export type DefinitionLookup = (t: { kind: 'struct' | 'union'; tag: string }) => TypeDefinition | undefined;

export interface Storage {
  size: number;
  align: number;
}

/** Size and alignment of a complete object type; a string says why the type has none. */
export function storageOf(t: CType, lookup: DefinitionLookup, depth = 0): Storage | string {
  if (depth > 32) return 'types nest too deeply';
  const r = resolve(t);
  switch (r.kind) {
    case 'void':
      return 'void has no size';
    case 'function':
      return 'a function has no size';
    case 'int':
    case 'bool':
    case 'pointer':
    case 'enum':
      return { size: r.size, align: r.size };
    case 'float':
      // i386 SysV's 10-byte long double occupies 12 bytes at alignment 4.
      return r.size === 10 ? { size: 12, align: 4 } : { size: r.size, align: r.size };
    case 'array': {
      const each = storageOf(r.of, lookup, depth + 1);
      return typeof each === 'string' ? each : { size: each.size * r.count, align: each.align };
    }
    case 'struct':
    case 'union': {
      const def = lookup(r);
      if (!def || def.kind === 'enum' || def.size === null) return `${r.kind} ${r.tag || '(anonymous)'} is incomplete`;
      let align = 1;
      for (const m of def.members) {
        const s = storageOf(m.type, lookup, depth + 1);
        if (typeof s === 'string') return s;
        align = Math.max(align, s.align);
      }
      return { size: def.size, align };
    }
    default:
      return 'the type has no size';
  }
}

const roundUp = (n: number, to: number) => Math.ceil(n / to) * to;

/**
 * Offsets and total size of `fields` laid out as `kind`. A trailing array of no elements (`char d[]`) is a
 * flexible member: it takes its alignment but no space. A string says which field has no size, and why.
 */
export function layout(
  kind: 'struct' | 'union',
  fields: { name: string; type: CType }[],
  lookup: DefinitionLookup,
): { size: number; members: Member[] } | { field: string; reason: string } {
  let offset = 0;
  let size = 0;
  let align = 1;
  const members: Member[] = [];
  for (const [i, f] of fields.entries()) {
    const s = storageOf(f.type, lookup);
    if (typeof s === 'string') return { field: f.name, reason: s };
    const r = resolve(f.type);
    if (r.kind === 'array' && r.count === 0 && (kind === 'union' || i !== fields.length - 1))
      return { field: f.name, reason: 'an array of no elements must be the last member' };
    align = Math.max(align, s.align);
    const at = kind === 'struct' ? roundUp(offset, s.align) : 0;
    members.push({ name: f.name, offset: at, type: f.type });
    offset = at + s.size;
    size = Math.max(size, offset);
  }
  return { size: roundUp(size, align), members };
}
