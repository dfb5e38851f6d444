// COFF symbol table (PointerToSymbolTable / NumberOfSymbols): images keep one when the linker is not told to
// strip it (mingw does not strip by default). 18-byte records, each followed by NumberOfAuxSymbols aux
// records; names longer than 8 bytes live in the string table right after the records. Values are offsets
// into the 1-based SectionNumber's section.
import type { SymbolInfo } from '../image.js';
import { LIMITS } from './context.js';
import type { PeContext } from './context.js';
import { COFF_SYMBOL_SIZE } from './headers.js';
import type { PeHeaders } from './headers.js';

const CLASS_EXTERNAL = 2;
const CLASS_STATIC = 3;
const CLASS_LABEL = 6;
const CLASS_WEAK_EXTERNAL = 105;
/** Complex type in bits 4–5 of Type; 2 is DTYPE_FUNCTION (Type 0x20 for `void f()`). */
const DTYPE_FUNCTION = 2;

export function readCoffSymbols(ctx: PeContext, h: PeHeaders): SymbolInfo[] {
  if (h.symbolTable === 0) return [];
  const v = ctx.v;
  let count = h.symbolCount;
  const fit = Math.max(0, Math.floor((v.length - h.symbolTable) / COFF_SYMBOL_SIZE));
  if (count > fit) {
    ctx.warn(`COFF symbol table truncated: ${fit} of ${h.symbolCount} records in the file`);
    count = fit;
  }
  if (count > LIMITS.symbols) {
    ctx.warn(`COFF symbols capped at ${LIMITS.symbols}`);
    count = LIMITS.symbols;
  }
  const strings = h.symbolTable + h.symbolCount * COFF_SYMBOL_SIZE;
  // A string table size we cannot trust (absent, past EOF) still lets names inside the file be read.
  const declared = v.u32(strings);
  const stringsSize = declared >= 4 && v.has(strings, declared) ? declared : Math.max(0, v.length - strings);

  const out: SymbolInfo[] = [];
  let unnamed = 0;
  for (let i = 0; i < count; i++) {
    const at = h.symbolTable + i * COFF_SYMBOL_SIZE;
    const aux = v.u8(at + 17);
    i += aux;
    const section = (v.u16(at + 12) << 16) >> 16;
    const storage = v.u8(at + 16);
    // 0 = undefined, -1 = absolute (not an address), -2 = debug; and the count may exceed what we kept.
    const target = section > 0 ? h.sections[section - 1] : undefined;
    if (!target) continue;
    const type = v.u16(at + 14);
    const isFunction = ((type >> 4) & 3) === DTYPE_FUNCTION;
    if (
      storage !== CLASS_EXTERNAL &&
      storage !== CLASS_STATIC &&
      storage !== CLASS_LABEL &&
      storage !== CLASS_WEAK_EXTERNAL
    )
      continue;
    // A static non-function with aux records is a section definition (".text", ".rdata$.refptr.x").
    if (storage === CLASS_STATIC && aux > 0 && !isFunction) continue;
    const name = symbolName(ctx, at, strings, stringsSize);
    if (name === '') {
      unnamed++;
      continue;
    }
    out.push({
      name,
      vaddr: h.imageBase + target.rva + v.u32(at + 8),
      size: 0,
      kind: isFunction ? 'function' : target.exec ? 'other' : 'object',
      binding: storage === CLASS_EXTERNAL ? 'global' : storage === CLASS_WEAK_EXTERNAL ? 'weak' : 'local',
      source: 'symtab',
    });
  }
  if (unnamed > 0) ctx.warn(`${unnamed} COFF symbols with unreadable names skipped`);
  return out;
}

function symbolName(ctx: PeContext, at: number, strings: number, stringsSize: number): string {
  if (ctx.v.u32(at) !== 0) return ctx.v.fixedString(at, 8);
  const offset = ctx.v.u32(at + 4);
  return offset >= 4 && offset < stringsSize ? ctx.name(strings + offset, stringsSize - offset) : '';
}
