// Per-parse state every PE table reader shares: the byte view, capped diagnostics and a budget for names.
import type { ByteView } from '../byte-view.js';
import { ParseContext } from '../parse-context.js';

/**
 * Caps on what one file may make us produce. Real images stay far below: the corpus's largest PE (sqlite,
 * x86-64 -O0, 1.3 MB) has 4 762 COFF records, 121 imports, 2 649 .pdata entries and 0.95 MB of .text; its
 * i386 build has ~10 000 base relocations; all its names together are ~68 000 characters. The caps only
 * bound the work a hostile header can ask for (each is a loop bound, never an allocation size).
 */
export const LIMITS = {
  sections: 1024,
  importDescriptors: 4096,
  imports: 65536,
  exports: 65536,
  symbols: 1 << 20,
  relocations: 1 << 21,
  pdata: 1 << 20,
  tlsCallbacks: 256,
  debugEntries: 64,
  /** Bytes of executable sections scanned for `ff 25` thunks: ~64× sqlite's .text. */
  stubScanBytes: 64 << 20,
  /** Characters of names read in all (imports, exports, symbols): ~120× sqlite's, decoded natively. */
  nameChars: 8 << 20,
} as const;

export class PeContext extends ParseContext {
  constructor(v: ByteView) {
    super(v, LIMITS.nameChars);
  }
}
