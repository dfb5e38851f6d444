// What a loader needs of a PE image to map and start it: where it goes, its headers and sections with their
// rights, the import slots to fill, and the code to run first (TLS callbacks, then the entry point).
import { ByteView } from '../byte-view.js';
import { FormatError } from '../errors.js';
import type { ImportInfo, SegmentInfo } from '../image.js';
import { PeContext } from './context.js';
import { readHeaders } from './headers.js';
import { identifyPe } from './identify.js';
import { readImports } from './imports.js';
import { RvaMap } from './rva-map.js';
import { readTlsCallbacks } from './tls.js';

export interface PeLoadPlan {
  /** IMAGE_FILE_MACHINE_* (0x14c i386, 0x8664 AMD64). */
  machine: number;
  is64: boolean;
  /** IMAGE_FILE_DLL: a library, whose entry point is DllMain. */
  dll: boolean;
  imageBase: number;
  sizeOfImage: number;
  /** The headers first (code reads its own), then each section, at virtual addresses. */
  segments: SegmentInfo[];
  /** Entry point's virtual address; 0 when there is none. */
  entry: number;
  imports: ImportInfo[];
  tlsCallbacks: number[];
}

export function peLoadPlan(bytes: Uint8Array): PeLoadPlan {
  const ctx = new PeContext(new ByteView(bytes, true));
  const h = identifyPe(bytes) ? readHeaders(ctx) : null;
  if (!h) throw new FormatError('pe', 'bad-header', 'not a PE image, or its optional header is unreadable');
  const map = new RvaMap(h, bytes.length);
  const headers: SegmentInfo = {
    vaddr: h.imageBase,
    memSize: h.sizeOfHeaders,
    fileOffset: 0,
    fileSize: Math.min(h.sizeOfHeaders, bytes.length),
    read: true,
    write: false,
    exec: false,
  };
  const sections = h.sections.map((s) => ({
    vaddr: h.imageBase + s.rva,
    memSize: s.size,
    fileOffset: s.fileOffset,
    fileSize: s.fileSize,
    read: s.read,
    write: s.write,
    exec: s.exec,
  }));
  return {
    machine: h.machine,
    is64: h.is64,
    dll: (h.characteristics & 0x2000) !== 0,
    imageBase: h.imageBase,
    sizeOfImage: h.sizeOfImage,
    segments: [headers, ...sections].filter((s) => s.memSize > 0),
    entry: h.entryRva === 0 ? 0 : h.imageBase + h.entryRva,
    imports: readImports(ctx, h, map).imports,
    tlsCallbacks: readTlsCallbacks(ctx, h, map).map((e) => e.vaddr),
  };
}
