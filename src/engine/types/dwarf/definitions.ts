// Definitions of the structures, unions and enums the types refer to, read from the DIEs TypeBuilder
// queued. One definition per tag: a full definition replaces a declaration; of two full definitions (the
// same header in several units) the first is kept, and a second of another size is reported.
import { sizeOf, tableKey, type CType, type IntSize, type Member, type TypeDefinition } from '../ctype.js';
import { block, constant, flag, has, string } from './attributes.js';
import { AT, TAG } from './constants.js';
import { tagOf, type Die } from './die.js';
import { memberOffset } from './expressions.js';
import type { TypeBuilder } from './types.js';

const hex = (n: number): string => `0x${n.toString(16)}`;

type Tagged = Extract<CType, { tag: string }>;

/** Reads the definitions of every DIE in `b.pending` (which grows as members name more types). */
export function defineTypes(b: TypeBuilder): void {
  const declarationOnly = new Set<string>();
  const conflicts = new Set<string>();
  for (let i = 0; i < b.pending.length; i++) {
    const die = b.pending[i]!;
    try {
      define(b, die, declarationOnly, conflicts);
    } catch (err) {
      b.diagnostics.add(`definition at DIE ${hex(die.offset)}: ${(err as Error).message}`);
    }
  }
  b.pending.length = 0;
  if (conflicts.size > 0) {
    const some = [...conflicts].slice(0, 5).join(', ');
    b.diagnostics.add(
      `${conflicts.size} tags defined with different sizes in different units, the first kept: ${some}`,
    );
  }
}

function define(b: TypeBuilder, die: Die, declarationOnly: Set<string>, conflicts: Set<string>): void {
  const ref = b.typeOf(die);
  if (ref.kind !== 'struct' && ref.kind !== 'union' && ref.kind !== 'enum') return;
  const key = tableKey(ref);
  const known = b.table.get(key);
  const declaration = flag(die, AT.declaration);
  if (known && !declarationOnly.has(key)) {
    const size = constant(die, AT.byte_size);
    if (!declaration && size !== null && known.size !== size) conflicts.add(key);
    return;
  }
  if (declaration) {
    if (!known) {
      b.table.set(key, opaque(ref));
      declarationOnly.add(key);
    }
    return;
  }
  b.table.set(key, ref.kind === 'enum' ? enumDefinition(die, ref) : aggregateDefinition(b, die, ref));
  declarationOnly.delete(key);
}

function opaque(ref: Tagged): TypeDefinition {
  return ref.kind === 'enum'
    ? { kind: 'enum', tag: ref.tag, size: ref.size, enumerators: [] }
    : { kind: ref.kind === 'union' ? 'union' : 'struct', tag: ref.tag, size: null, members: [] };
}

function aggregateDefinition(b: TypeBuilder, die: Die, ref: Tagged): TypeDefinition {
  const members: Member[] = [];
  for (const c of die.children ?? []) {
    const tag = tagOf(c);
    // Static data members are declarations; they take no room in the layout.
    if ((tag === TAG.member || tag === TAG.inheritance) && !flag(c, AT.declaration)) members.push(member(b, c));
  }
  return { kind: ref.kind === 'union' ? 'union' : 'struct', tag: ref.tag, size: constant(die, AT.byte_size), members };
}

/** DW_AT_data_member_location: a constant, or (DWARF 2/3) DW_OP_plus_uconst; absent in unions. */
function memberLocation(b: TypeBuilder, c: Die): number | null {
  if (!has(c, AT.data_member_location)) return null;
  const expr = block(c, AT.data_member_location);
  if (!expr) return constant(c, AT.data_member_location) ?? 0;
  const offset = memberOffset(expr);
  if (offset === null)
    b.diagnostics.add(`member at DIE ${hex(c.offset)}: location is not a constant offset, read as 0`);
  return offset ?? 0;
}

function member(b: TypeBuilder, c: Die): Member {
  const type = b.typeAttr(c);
  const name = string(c, AT.name) ?? '';
  const location = memberLocation(b, c);
  const bitSize = constant(c, AT.bit_size);
  if (bitSize === null) return { name, offset: location ?? 0, type };
  const typeSize = sizeOf(type, b.table) ?? 0;
  const dataBitOffset = constant(c, AT.data_bit_offset);
  if (dataBitOffset !== null) {
    // DWARF 4+: bits from the start of the structure; the byte offset is that of the storage unit.
    const unit = typeSize > 0 ? typeSize : 1;
    const offset = location ?? Math.floor(dataBitOffset / (unit * 8)) * unit;
    return { name, offset, type, bitSize, bitOffset: dataBitOffset };
  }
  const loc = location ?? 0;
  const legacy = constant(c, AT.bit_offset);
  if (legacy === null) return { name, offset: loc, type, bitSize, bitOffset: loc * 8 };
  // DWARF 2/3: bits from the most significant bit of a storage unit of DW_AT_byte_size bytes at `loc`.
  const storage = constant(c, AT.byte_size) ?? typeSize;
  const little = c.unit.dwarf.sections.little;
  const bitOffset = little ? loc * 8 + storage * 8 - legacy - bitSize : loc * 8 + legacy;
  return { name, offset: loc, type, bitSize, bitOffset };
}

function enumDefinition(die: Die, ref: Extract<CType, { kind: 'enum' }>): TypeDefinition {
  const enumerators: { name: string; value: number }[] = [];
  // Data forms read unsigned: GCC writes negative enumerators as sdata and 200 in a signed enum as data1
  // 0xc8, and the standard asks producers for sdata/udata wherever the sign matters.
  for (const c of die.children ?? [])
    if (tagOf(c) === TAG.enumerator)
      enumerators.push({ name: string(c, AT.name) ?? '', value: constant(c, AT.const_value) ?? 0 });
  return { kind: 'enum', tag: ref.tag, size: ref.size as IntSize, enumerators };
}
