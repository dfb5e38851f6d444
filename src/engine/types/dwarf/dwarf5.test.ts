// A DWARF 5 file written by hand: indexed strings and addresses through their bases (strx, addrx),
// .debug_line_str, implicit constants, a data16 attribute to step over, a split function's range list
// (rnglistx), a type unit reached through DW_FORM_ref_sig8, a DWARF 5 line table for an anonymous tag.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  Writer,
  abbrevTable,
  concat,
  elfWithSections,
  expr,
  infoSection,
  lineTableV5,
  sleb,
  uleb,
  type AbbrevSpec,
} from '../../../../test/helpers/engine/dwarf.js';
import { formatPrototype, formatType } from '../ctype.js';
import { AT, FORM, OP, RLE, TAG, UT } from './constants.js';
import { readDwarfTypes } from './index.js';

const DW_OP_reg0 = 0x50;
/** An attribute no reader knows (in the user range), to be stepped over by its form. */
const AT_unknown = 0x3fe0;

const CU_ABBREVS: AbbrevSpec[] = [
  {
    tag: TAG.compile_unit,
    children: true,
    attrs: [
      [AT.name, FORM.strx1],
      [AT.str_offsets_base, FORM.sec_offset],
      [AT.addr_base, FORM.sec_offset],
      [AT.rnglists_base, FORM.sec_offset],
      [AT.stmt_list, FORM.sec_offset],
      [AT.low_pc, FORM.addr],
      [AT_unknown, FORM.data16],
    ],
  },
  /* 2 */ {
    tag: TAG.base_type,
    attrs: [
      [AT.name, FORM.string],
      [AT.byte_size, FORM.data1],
      [AT.encoding, FORM.data1],
    ],
  },
  /* 3 */ { tag: TAG.const_type, attrs: [[AT.type, FORM.ref4]] },
  /* 4 */ {
    tag: TAG.pointer_type,
    attrs: [
      [AT.byte_size, FORM.implicit_const, 8],
      [AT.type, FORM.ref4],
    ],
  },
  /* 5 */ { tag: TAG.restrict_type, attrs: [[AT.type, FORM.ref4]] },
  {
    /* 6 */ tag: TAG.structure_type,
    children: true,
    attrs: [
      [AT.byte_size, FORM.data1],
      [AT.decl_file, FORM.implicit_const, 1],
      [AT.decl_line, FORM.data1],
    ],
  },
  {
    /* 7 */ tag: TAG.member,
    attrs: [
      [AT.name, FORM.string],
      [AT.type, FORM.ref4],
      [AT.data_member_location, FORM.data1],
    ],
  },
  {
    /* 8 */ tag: TAG.member,
    attrs: [
      [AT.name, FORM.string],
      [AT.type, FORM.ref4],
      [AT.bit_size, FORM.data1],
      [AT.data_bit_offset, FORM.data1],
    ],
  },
  /* 9 */ {
    tag: TAG.typedef,
    attrs: [
      [AT.name, FORM.string],
      [AT.type, FORM.ref4],
    ],
  },
  {
    /* 10 */ tag: TAG.subprogram,
    children: true,
    attrs: [
      [AT.name, FORM.line_strp],
      [AT.external, FORM.flag_present],
      [AT.prototyped, FORM.flag_present],
      [AT.type, FORM.ref4],
      [AT.ranges, FORM.rnglistx],
    ],
  },
  {
    /* 11 */ tag: TAG.formal_parameter,
    attrs: [
      [AT.name, FORM.strx1],
      [AT.type, FORM.ref4],
      [AT.location, FORM.exprloc],
    ],
  },
  /* 12 */ { tag: TAG.unspecified_parameters, attrs: [] },
  {
    /* 13 */ tag: TAG.variable,
    attrs: [
      [AT.name, FORM.string],
      [AT.type, FORM.ref4],
      [AT.location, FORM.exprloc],
    ],
  },
  /* 14 */ { tag: TAG.lexical_block, children: true, attrs: [] },
  {
    /* 15 */ tag: TAG.subprogram,
    attrs: [
      [AT.name, FORM.string],
      [AT.low_pc, FORM.addrx1],
      [AT.high_pc, FORM.data4],
    ],
  },
  {
    /* 16 */ tag: TAG.variable,
    attrs: [
      [AT.name, FORM.string],
      [AT.type, FORM.ref_sig8],
      [AT.location, FORM.exprloc],
    ],
  },
];

const TU_ABBREVS: AbbrevSpec[] = [
  { tag: TAG.type_unit, children: true, attrs: [] },
  {
    tag: TAG.base_type,
    attrs: [
      [AT.name, FORM.string],
      [AT.byte_size, FORM.data1],
      [AT.encoding, FORM.data1],
    ],
  },
  {
    tag: TAG.structure_type,
    children: true,
    attrs: [
      [AT.name, FORM.string],
      [AT.byte_size, FORM.data1],
    ],
  },
  {
    tag: TAG.member,
    attrs: [
      [AT.name, FORM.string],
      [AT.type, FORM.ref4],
      [AT.data_member_location, FORM.data1],
    ],
  },
];

const SIGNATURE = 0x0123456789abcdefn;
const UNKNOWN_SIGNATURE = 0x1111n;

function sections(): Record<string, Uint8Array> {
  const str = new Writer().cstr('').cstr('unit.c').cstr('argv').bytes(); // 'unit.c' at 1, 'argv' at 8
  const lineStr = new Writer().cstr('main').bytes();
  // .debug_str_offsets: an 8-byte header, then the offsets the strx forms index.
  const strOffsets = new Writer().u32(12).u16(5).u16(0).u32(1).u32(8).bytes();
  // .debug_addr: an 8-byte header, then slots 0 (the hot part), 1 (helper), 2 (a global).
  const addr = new Writer().u32(28).u16(5).u8(8).u8(0).u64(0x1000).u64(0x2000).u64(0x4000).bytes();
  // .debug_rnglists: a 12-byte header, one offset (relative to the base at 12), then the list at 16.
  const rnglists = new Writer()
    .u32(0)
    .u16(5)
    .u8(8)
    .u8(0)
    .u32(1)
    .u32(4)
    .u8(RLE.startx_length)
    .uleb(0)
    .uleb(0x40)
    .u8(RLE.base_address)
    .u64(0x3000)
    .u8(RLE.offset_pair)
    .uleb(0)
    .uleb(0x10)
    .u8(RLE.end_of_list);
  rnglists.patch(0, 4, rnglists.length - 4);
  const cuAbbrevs = abbrevTable(CU_ABBREVS);
  const info = infoSection([
    {
      version: 5,
      abbrevs: CU_ABBREVS,
      root: {
        abbrev: 1,
        values: [0, 8, 8, 12, 0, 0, new Uint8Array(16).fill(0xee)],
        children: [
          { abbrev: 2, label: 'int', values: ['int', 4, 5] },
          { abbrev: 2, label: 'char', values: ['char', 1, 6] },
          { abbrev: 3, label: 'cchar', values: [{ ref: 'char' }] },
          { abbrev: 4, label: 'pcchar', values: [undefined, { ref: 'cchar' }] },
          { abbrev: 5, label: 'rpcchar', values: [{ ref: 'pcchar' }] },
          {
            abbrev: 6,
            label: 'anon',
            values: [8, undefined, 7],
            children: [
              { abbrev: 7, values: ['a', { ref: 'int' }, 0] },
              { abbrev: 8, values: ['b', { ref: 'int' }, 3, 35] },
            ],
          },
          { abbrev: 9, values: ['anon_t', { ref: 'anon' }] },
          {
            abbrev: 10,
            values: [0, undefined, undefined, { ref: 'int' }, 0],
            children: [
              { abbrev: 11, values: [1, { ref: 'rpcchar' }, expr(OP.fbreg, sleb(-20))] },
              { abbrev: 12 },
              { abbrev: 13, values: ['n', { ref: 'int' }, expr(OP.fbreg, sleb(-24))] },
              {
                abbrev: 14,
                children: [{ abbrev: 13, values: ['inner', { ref: 'anon' }, expr(DW_OP_reg0)] }],
              },
            ],
          },
          { abbrev: 15, values: ['helper', 1, 0x20] },
          { abbrev: 16, values: ['counter', SIGNATURE, expr(OP.addrx, uleb(2))] },
          { abbrev: 16, values: ['elsewhere', UNKNOWN_SIGNATURE, expr(OP.addr, [0, 0x50, 0, 0, 0, 0, 0, 0])] },
        ],
      },
    },
    {
      version: 5,
      unitType: UT.type,
      abbrevOffset: cuAbbrevs.length,
      abbrevs: TU_ABBREVS,
      signature: SIGNATURE,
      typeLabel: 'tu',
      root: {
        abbrev: 1,
        children: [
          { abbrev: 2, label: 'int', values: ['int', 4, 5] },
          {
            abbrev: 3,
            label: 'tu',
            values: ['tu_struct', 16],
            children: [{ abbrev: 4, values: ['x', { ref: 'int' }, 8] }],
          },
        ],
      },
    },
  ]);
  return {
    '.debug_info': info,
    '.debug_abbrev': concat([cuAbbrevs, abbrevTable(TU_ABBREVS)]),
    '.debug_str': str,
    '.debug_line_str': lineStr,
    '.debug_str_offsets': strOffsets,
    '.debug_addr': addr,
    '.debug_rnglists': rnglists.bytes(),
    '.debug_line': lineTableV5(['unit.c', 'shapes.h']),
  };
}

test('DWARF 5: a split function through rnglistx, strx and line_strp names, variadic, locals', () => {
  const dwarf = readDwarfTypes(elfWithSections(sections()));
  assert.ok(dwarf);
  assert.deepEqual(dwarf.diagnostics, []);
  assert.deepEqual([...dwarf.functions.keys()], [0x1000, 0x2000]);
  const main = dwarf.functions.get(0x1000)!;
  // The entry is the first range (the hot part); the size counts both parts.
  assert.equal(main.size, 0x50);
  assert.equal(main.external, true);
  assert.equal(formatPrototype(main.name, main.prototype), 'int main(const char *argv, ...)');
  assert.deepEqual(
    main.locals.map((l) => [l.name, formatType(l.type), l.frameOffset]),
    [
      ['n', 'int', -24],
      ['inner', 'struct <anonymous@shapes.h:7>', null],
    ],
  );
  const helper = dwarf.functions.get(0x2000)!;
  assert.equal(helper.size, 0x20);
  assert.equal(formatPrototype(helper.name, helper.prototype), 'void helper(void)');
  assert.equal(helper.external, false);
});

test('DWARF 5: anonymous tags from the line table, data_bit_offset bit-fields, typedefs', () => {
  const dwarf = readDwarfTypes(elfWithSections(sections()))!;
  assert.deepEqual(dwarf.table.get('struct <anonymous@shapes.h:7>'), {
    kind: 'struct',
    tag: '<anonymous@shapes.h:7>',
    size: 8,
    members: [
      { name: 'a', offset: 0, type: { kind: 'int', size: 4, signed: true, name: 'int' } },
      { name: 'b', offset: 4, type: { kind: 'int', size: 4, signed: true, name: 'int' }, bitSize: 3, bitOffset: 35 },
    ],
  });
  assert.equal(formatType(dwarf.typedefs.get('anon_t')!), 'struct <anonymous@shapes.h:7>');
});

test('DWARF 5: ref_sig8 reaches the type unit; an unknown signature is an opaque structure', () => {
  const dwarf = readDwarfTypes(elfWithSections(sections()))!;
  assert.deepEqual(
    dwarf.globals.map((g) => [g.address, g.name, formatType(g.type)]),
    [
      [0x4000, 'counter', 'struct tu_struct'],
      [0x5000, 'elsewhere', 'struct <signature 1111000000000000>'],
    ],
  );
  const tu = dwarf.table.get('struct tu_struct');
  assert.equal(tu?.size, 16);
  assert.deepEqual(tu?.kind === 'struct' && tu.members.map((m) => [m.name, m.offset]), [['x', 8]]);
  assert.deepEqual(dwarf.table.get('struct <signature 1111000000000000>'), {
    kind: 'struct',
    tag: '<signature 1111000000000000>',
    size: null,
    members: [],
  });
});

test('no .debug_info: null', () => {
  assert.equal(readDwarfTypes(elfWithSections({ '.debug_str': new Uint8Array(4) })), null);
});

test('Mach-O names: __DWARF,__debug_* with section names cut at 16 characters (__debug_str_offs)', () => {
  const elf = elfWithSections(sections());
  const macho = {
    ...elf,
    sections: elf.sections.map((s) => ({ ...s, name: `__DWARF,__${s.name.slice(1)}`.slice(0, 24) })),
  };
  assert.ok(macho.sections.some((s) => s.name === '__DWARF,__debug_str_offs'));
  const dwarf = readDwarfTypes(macho)!;
  assert.deepEqual(dwarf.diagnostics, []);
  assert.deepEqual(dwarf, readDwarfTypes(elf));
});
