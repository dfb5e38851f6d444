// DWARF 2 and 4 written by hand, for what the corpus's DWARF 4 twins do not show: a big-endian 32-bit
// DWARF 2 unit (DW_FORM_ref_addr the size of an address, member offsets as DW_OP_plus_uconst, big-endian
// DW_AT_bit_offset, DW_AT_high_pc as an address), and 64-bit DWARF 4 (8-byte offsets, .debug_ranges with a
// base address selection, abstract origins and specifications, arrays, function pointers, enums).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { stringTable } from '../../../../test/helpers/engine/elf.js';
import {
  Writer,
  abbrevTable,
  elfWithSections,
  expr,
  infoSection,
  lineTableV4,
  uleb,
  type AbbrevSpec,
} from '../../../../test/helpers/engine/dwarf.js';
import { formatPrototype, formatType, sizeOf } from '../ctype.js';
import { AT, ATE, FORM, OP, TAG } from './constants.js';
import { readDwarfTypes } from './index.js';

const DW_INL_declared_inlined = 3;

test('DWARF 2, big-endian, 32-bit: ref_addr, plus_uconst offsets, bit_offset from the top, high_pc as an address', () => {
  const abbrevs: AbbrevSpec[] = [
    {
      tag: TAG.compile_unit,
      children: true,
      attrs: [
        [AT.name, FORM.string],
        [AT.low_pc, FORM.addr],
        [AT.stmt_list, FORM.data4],
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
    /* 3 */ {
      tag: TAG.structure_type,
      children: true,
      attrs: [
        [AT.byte_size, FORM.data1],
        [AT.decl_file, FORM.data1],
        [AT.decl_line, FORM.data2],
      ],
    },
    /* 4 */ {
      tag: TAG.member,
      attrs: [
        [AT.name, FORM.string],
        [AT.type, FORM.ref_addr],
        [AT.data_member_location, FORM.block1],
      ],
    },
    {
      /* 5 */ tag: TAG.member,
      attrs: [
        [AT.name, FORM.string],
        [AT.type, FORM.ref4],
        [AT.byte_size, FORM.data1],
        [AT.bit_size, FORM.data1],
        [AT.bit_offset, FORM.data1],
        [AT.data_member_location, FORM.block1],
      ],
    },
    /* 6 */ { tag: TAG.pointer_type, attrs: [[AT.type, FORM.ref4]] },
    {
      /* 7 */ tag: TAG.subprogram,
      children: true,
      attrs: [
        [AT.name, FORM.string],
        [AT.external, FORM.flag],
        [AT.low_pc, FORM.addr],
        [AT.high_pc, FORM.addr],
        [AT.type, FORM.ref4],
      ],
    },
    /* 8 */ {
      tag: TAG.formal_parameter,
      attrs: [
        [AT.name, FORM.string],
        [AT.type, FORM.ref4],
      ],
    },
    /* 9 */ {
      tag: TAG.variable,
      attrs: [
        [AT.name, FORM.string],
        [AT.type, FORM.ref4],
        [AT.location, FORM.block1],
      ],
    },
  ];
  const info = infoSection([
    {
      version: 2,
      abbrevs,
      addressSize: 4,
      little: false,
      abbrevOffset: 0,
      root: {
        abbrev: 1,
        values: ['old.c', 0, 0],
        children: [
          { abbrev: 2, label: 'int', values: ['int', 4, ATE.signed] },
          { abbrev: 2, label: 'uint', values: ['unsigned int', 4, ATE.unsigned] },
          {
            abbrev: 3,
            label: 's',
            values: [8, 1, 12],
            children: [
              { abbrev: 4, values: ['a', { ref: 'int' }, expr(OP.plus_uconst, uleb(0))] },
              { abbrev: 5, values: ['f', { ref: 'uint' }, 4, 3, 2, expr(OP.plus_uconst, uleb(4))] },
            ],
          },
          { abbrev: 6, label: 'ps', values: [{ ref: 's' }] },
          {
            abbrev: 7,
            values: ['f', 1, 0x400100, 0x400180, { ref: 'int' }],
            children: [{ abbrev: 8, values: ['p', { ref: 'ps' }] }],
          },
          { abbrev: 9, values: ['g', { ref: 's' }, expr(OP.addr, [0x00, 0x41, 0x00, 0x00])] },
        ],
      },
    },
  ]);
  const image = elfWithSections(
    { '.debug_info': info, '.debug_abbrev': abbrevTable(abbrevs), '.debug_line': lineTableV4(['old.h'], 2, false) },
    { bits: 32, little: false, machine: 8 },
  );
  const dwarf = readDwarfTypes(image)!;
  assert.deepEqual(dwarf.diagnostics, []);
  const f = dwarf.functions.get(0x400100)!;
  assert.equal(f.size, 0x80);
  assert.equal(formatPrototype(f.name, f.prototype), 'int f(struct <anonymous@old.h:12> *p)');
  const p = f.prototype.params[0]!.type;
  assert.equal(p.kind === 'pointer' && p.size, 4);
  const s = dwarf.table.get('struct <anonymous@old.h:12>');
  assert.deepEqual(s?.kind === 'struct' && s.members.map((m) => [m.name, m.offset, m.bitOffset ?? null]), [
    ['a', 0, null],
    // Big-endian: DW_AT_bit_offset counts from the storage unit's most significant bit, the first in memory.
    ['f', 4, 34],
  ]);
  assert.deepEqual(
    dwarf.globals.map((g) => [g.address, g.name]),
    [[0x410000, 'g']],
  );
});

test('DWARF 4, 64-bit DWARF: origins, specifications, .debug_ranges, arrays, function pointers, enums', () => {
  const strings = stringTable([
    'unit.c',
    'int',
    'char',
    '_Bool',
    'long double',
    'myint',
    'scale',
    'x',
    'y',
    'api',
    'p',
    'arr',
    'flex',
    'ld',
    'flag',
    'cb_t',
    'vcb_t',
    'color',
    'RED',
    'BLUE',
    'tmp',
  ]);
  const s = (name: string): number => strings.offset(name);
  const abbrevs: AbbrevSpec[] = [
    {
      tag: TAG.compile_unit,
      children: true,
      attrs: [
        [AT.name, FORM.strp],
        [AT.low_pc, FORM.addr],
      ],
    },
    /* 2 */ {
      tag: TAG.base_type,
      attrs: [
        [AT.name, FORM.strp],
        [AT.byte_size, FORM.data1],
        [AT.encoding, FORM.data1],
      ],
    },
    /* 3 */ {
      tag: TAG.typedef,
      attrs: [
        [AT.name, FORM.strp],
        [AT.type, FORM.ref4],
      ],
    },
    {
      /* 4 */ tag: TAG.subprogram,
      children: true,
      attrs: [
        [AT.name, FORM.strp],
        [AT.prototyped, FORM.flag_present],
        [AT.type, FORM.ref4],
        [0x20 /* DW_AT_inline */, FORM.data1],
        [AT.external, FORM.flag_present],
      ],
    },
    /* 5 */ {
      tag: TAG.formal_parameter,
      attrs: [
        [AT.name, FORM.strp],
        [AT.type, FORM.ref4],
      ],
    },
    /* 6 */ {
      tag: TAG.subprogram,
      children: true,
      attrs: [
        [AT.abstract_origin, FORM.ref4],
        [AT.low_pc, FORM.addr],
        [AT.high_pc, FORM.data8],
      ],
    },
    /* 7 */ {
      tag: TAG.formal_parameter,
      attrs: [
        [AT.abstract_origin, FORM.ref4],
        [AT.location, FORM.exprloc],
      ],
    },
    {
      /* 8 */ tag: TAG.subprogram,
      children: true,
      attrs: [
        [AT.name, FORM.strp],
        [AT.type, FORM.ref4],
        [AT.declaration, FORM.flag_present],
        [AT.external, FORM.flag_present],
      ],
    },
    /* 9 */ {
      tag: TAG.subprogram,
      attrs: [
        [AT.specification, FORM.ref4],
        [AT.ranges, FORM.sec_offset],
      ],
    },
    /* 10 */ {
      tag: TAG.variable,
      attrs: [
        [AT.name, FORM.strp],
        [AT.type, FORM.ref4],
        [AT.location, FORM.exprloc],
      ],
    },
    /* 11 */ { tag: TAG.array_type, children: true, attrs: [[AT.type, FORM.ref4]] },
    /* 12 */ { tag: TAG.subrange_type, attrs: [[AT.count, FORM.data1]] },
    /* 13 */ { tag: TAG.subrange_type, attrs: [[AT.upper_bound, FORM.data1]] },
    /* 14 */ { tag: TAG.subrange_type, attrs: [] },
    /* 15 */ {
      tag: TAG.pointer_type,
      attrs: [
        [AT.byte_size, FORM.data1],
        [AT.type, FORM.ref4],
      ],
    },
    /* 16 */ {
      tag: TAG.subroutine_type,
      children: true,
      attrs: [
        [AT.prototyped, FORM.flag_present],
        [AT.type, FORM.ref4],
      ],
    },
    /* 17 */ { tag: TAG.formal_parameter, attrs: [[AT.type, FORM.ref4]] },
    /* 18 */ { tag: TAG.unspecified_parameters, attrs: [] },
    /* 19 */ {
      tag: TAG.enumeration_type,
      children: true,
      attrs: [
        [AT.name, FORM.strp],
        [AT.byte_size, FORM.data1],
        [AT.type, FORM.ref4],
      ],
    },
    /* 20 */ {
      tag: TAG.enumerator,
      attrs: [
        [AT.name, FORM.strp],
        [AT.const_value, FORM.sdata],
      ],
    },
    /* 21 */ {
      tag: TAG.enumerator,
      attrs: [
        [AT.name, FORM.strp],
        [AT.const_value, FORM.data1],
      ],
    },
    /* 22 */ { tag: TAG.pointer_type, attrs: [[AT.byte_size, FORM.data1]] },
  ];
  const at = (a: number): Uint8Array => expr(OP.addr, [...new Writer().u64(a).bytes()]);
  const info = infoSection([
    {
      version: 4,
      dwarf64: true,
      abbrevs,
      root: {
        abbrev: 1,
        values: [s('unit.c'), 0],
        children: [
          { abbrev: 2, label: 'int', values: [s('int'), 4, ATE.signed] },
          { abbrev: 2, label: 'char', values: [s('char'), 1, ATE.signed_char] },
          { abbrev: 2, label: 'bool', values: [s('_Bool'), 1, ATE.boolean] },
          { abbrev: 2, label: 'ld', values: [s('long double'), 16, ATE.float] },
          { abbrev: 3, label: 'myint', values: [s('myint'), { ref: 'int' }] },
          {
            abbrev: 4,
            label: 'scale',
            values: [s('scale'), undefined, { ref: 'myint' }, DW_INL_declared_inlined],
            children: [
              { abbrev: 5, label: 'x', values: [s('x'), { ref: 'int' }] },
              { abbrev: 5, label: 'y', values: [s('y'), { ref: 'int' }] },
            ],
          },
          // An out-of-line copy whose clone dropped `y`: the declared parameters still come from the origin.
          {
            abbrev: 6,
            values: [{ ref: 'scale' }, 0x1000, 0x30],
            children: [{ abbrev: 7, values: [{ ref: 'x' }, expr(0x55 /* DW_OP_reg5 */)] }],
          },
          { abbrev: 15, label: 'pchar', values: [8, { ref: 'char' }] },
          {
            abbrev: 8,
            label: 'api',
            values: [s('api'), { ref: 'int' }],
            children: [{ abbrev: 5, values: [s('p'), { ref: 'pchar' }] }],
          },
          { abbrev: 9, values: [{ ref: 'api' }, 0] },
          {
            abbrev: 11,
            label: 'arr',
            values: [{ ref: 'int' }],
            children: [
              { abbrev: 13, values: [1] },
              { abbrev: 12, values: [3] },
            ],
          },
          { abbrev: 11, label: 'flex', values: [{ ref: 'char' }], children: [{ abbrev: 14 }] },
          { abbrev: 10, values: [s('arr'), { ref: 'arr' }, at(0x5000)] },
          { abbrev: 10, values: [s('flex'), { ref: 'flex' }, at(0x5020)] },
          { abbrev: 10, values: [s('ld'), { ref: 'ld' }, at(0x5040)] },
          { abbrev: 10, values: [s('flag'), { ref: 'bool' }, at(0x5050)] },
          { abbrev: 22, label: 'pvoid', values: [8] },
          {
            abbrev: 16,
            label: 'fn',
            values: [undefined, { ref: 'int' }],
            children: [
              { abbrev: 17, values: [{ ref: 'pvoid' }] },
              { abbrev: 17, values: [{ ref: 'int' }] },
            ],
          },
          { abbrev: 15, label: 'pfn', values: [8, { ref: 'fn' }] },
          { abbrev: 3, values: [s('cb_t'), { ref: 'pfn' }] },
          {
            abbrev: 16,
            label: 'vfn',
            values: [undefined, { ref: 'int' }],
            children: [{ abbrev: 17, values: [{ ref: 'int' }] }, { abbrev: 18 }],
          },
          { abbrev: 15, label: 'pvfn', values: [8, { ref: 'vfn' }] },
          { abbrev: 3, values: [s('vcb_t'), { ref: 'pvfn' }] },
          {
            abbrev: 19,
            values: [s('color'), 4, { ref: 'int' }],
            children: [
              { abbrev: 20, values: [s('RED'), -1] },
              // GCC writes 200 as data1 0xc8 even in a signed enum: data forms read unsigned.
              { abbrev: 21, values: [s('BLUE'), 200] },
            ],
          },
        ],
      },
    },
  ]);
  // A base address selection entry (all ones, then the base), two pieces, the end.
  const ranges = new Writer()
    .u64(0xffff_ffff_ffff_ffffn)
    .u64(0x2000)
    .u64(0)
    .u64(0x20)
    .u64(0x100)
    .u64(0x108)
    .u64(0)
    .u64(0);
  const image = elfWithSections({
    '.debug_info': info,
    '.debug_abbrev': abbrevTable(abbrevs),
    '.debug_str': strings.data,
    '.debug_ranges': ranges.bytes(),
  });
  const dwarf = readDwarfTypes(image)!;
  assert.deepEqual(dwarf.diagnostics, []);
  const scale = dwarf.functions.get(0x1000)!;
  assert.equal(formatPrototype(scale.name, scale.prototype), 'myint scale(int x, int y)');
  assert.deepEqual([scale.size, scale.external], [0x30, true]);
  const api = dwarf.functions.get(0x2000)!;
  assert.equal(formatPrototype(api.name, api.prototype), 'int api(char *p)');
  assert.deepEqual([api.size, api.external], [0x28, true]);
  assert.deepEqual(
    dwarf.globals.map((g) => [g.address, formatType(g.type, g.name), sizeOf(g.type, dwarf.table)]),
    [
      [0x5000, 'int arr[2][3]', 24],
      [0x5020, 'char flex[0]', 0],
      [0x5040, 'long double ld', 16],
      [0x5050, 'bool flag', 1],
    ],
  );
  assert.equal(formatType(dwarf.typedefs.get('cb_t')!), 'int (*)(void *, int)');
  assert.equal(formatType(dwarf.typedefs.get('vcb_t')!), 'int (*)(int, ...)');
  assert.deepEqual(dwarf.table.get('enum color'), {
    kind: 'enum',
    tag: 'color',
    size: 4,
    enumerators: [
      { name: 'RED', value: -1 },
      { name: 'BLUE', value: 200 },
    ],
  });
});
