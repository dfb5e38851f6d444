// The file table of a line program header (.debug_line), which DW_AT_decl_file indexes: anonymous structs,
// unions and enums are named after where they are declared (`<anonymous@lz4frame.h:176>`), and only the
// basename is kept so the tag does not depend on the build directory. Versions 2–4 list names as strings
// (index 1 is the first); version 5 describes its entries with forms (index 0 is the primary file).
import { offsetOrIndex, stringValue } from './attributes.js';
import type { Geometry } from './abbrev.js';
import { ByteReader, DwarfFormatError } from './byte-reader.js';
import { AT, LNCT_path } from './constants.js';
import type { Unit } from './die.js';
import { skipForm } from './forms.js';

/** Files named by one line table; a table listing more is damage. */
const MAX_FILES = 100_000;
const MAX_FORMATS = 32;

const basename = (path: string): string => path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);

export function readFileNames(unit: Unit, offset: number): string[] {
  const { sections } = unit.dwarf;
  if (!sections.line) throw new DwarfFormatError('no .debug_line');
  const r = new ByteReader(sections.line, sections.little, offset);
  let length = r.u32();
  let offsetSize: 4 | 8 = 4;
  if (length === 0xffff_ffff) {
    length = r.u64();
    offsetSize = 8;
  }
  r.end = Math.min(r.bytes.length, r.pos + length);
  const version = r.u16();
  if (version < 2 || version > 5) throw new DwarfFormatError(`line table version ${version}`);
  let addressSize = unit.addressSize;
  if (version >= 5) {
    addressSize = r.u8();
    r.u8(); // segment_selector_size
  }
  const headerLength = r.uint(offsetSize);
  r.end = Math.min(r.end, r.pos + headerLength);
  // minimum_instruction_length, maximum_operations_per_instruction (from version 4), default_is_stmt,
  // line_base, line_range
  r.skip(version >= 4 ? 5 : 4);
  const opcodeBase = r.u8();
  r.skip(Math.max(0, opcodeBase - 1));
  if (version < 5) return legacyFiles(r);
  return entryFiles(r, unit, { addressSize, offsetSize, version });
}

function legacyFiles(r: ByteReader): string[] {
  while (r.u8() !== 0) {
    // include_directories: strings up to an empty one; the first byte is already read.
    r.pos--;
    r.skipString();
  }
  const files = [''];
  for (;;) {
    const name = r.cstring();
    if (name === '') return files;
    r.uleb();
    r.uleb();
    r.uleb();
    if (files.length > MAX_FILES) throw new DwarfFormatError(`line table lists over ${MAX_FILES} files`);
    files.push(basename(name));
  }
}

function readFormats(r: ByteReader): [number, number][] {
  const count = r.u8();
  if (count > MAX_FORMATS) throw new DwarfFormatError(`line table entry with ${count} fields`);
  const formats: [number, number][] = [];
  for (let i = 0; i < count; i++) formats.push([r.uleb(), r.uleb()]);
  return formats;
}

/** Reads `count` entries of `formats`, returning each entry's DW_LNCT_path (or ''). */
function readEntries(r: ByteReader, unit: Unit, g: Geometry, formats: [number, number][]): string[] {
  const count = r.uleb();
  if (count > MAX_FILES) throw new DwarfFormatError(`line table lists ${count} entries`);
  const paths: string[] = [];
  for (let i = 0; i < count; i++) {
    let path = '';
    for (const [content, form] of formats) {
      if (content === LNCT_path) path = stringValue(r, form, unit, g.offsetSize) ?? '';
      else skipForm(r, form, g);
    }
    paths.push(path);
  }
  return paths;
}

function entryFiles(r: ByteReader, unit: Unit, g: Geometry): string[] {
  readEntries(r, unit, g, readFormats(r)); // directories: the basename needs none of them
  return readEntries(r, unit, g, readFormats(r)).map(basename);
}

/**
 * The basename of file `index` of the unit's line table (DW_AT_decl_file), or null. The table is read once
 * per line program, shared by the units that name it (type units repeat their unit's DW_AT_stmt_list).
 */
export function declFile(unit: Unit, index: number): string | null {
  if (unit.files === null) unit.files = filesOf(unit);
  return unit.files[index] || null;
}

function filesOf(unit: Unit): string[] {
  const offset = unit.root ? offsetOrIndex(unit.root, AT.stmt_list) : null;
  if (offset === null) return [];
  const cache = unit.dwarf.lineFiles;
  let files = cache.get(offset);
  if (!files) {
    try {
      files = readFileNames(unit, offset);
    } catch (err) {
      if (!(err instanceof DwarfFormatError)) throw err;
      unit.dwarf.diagnostics.add(`.debug_line at 0x${offset.toString(16)}: ${err.message}`);
      files = [];
    }
    cache.set(offset, files);
  }
  return files;
}
