// TLS directory (directory 9): AddressOfCallBacks is a virtual address of a zero-terminated array of
// virtual addresses, callbacks the loader runs before the entry point (and a favourite hiding place).
import type { EntryPoint } from '../image.js';
import { LIMITS } from './context.js';
import type { PeContext } from './context.js';
import { DIR } from './headers.js';
import type { PeHeaders } from './headers.js';
import type { RvaMap } from './rva-map.js';

export function readTlsCallbacks(ctx: PeContext, h: PeHeaders, map: RvaMap): EntryPoint[] {
  const dir = h.dirs[DIR.tls]!;
  if (dir.rva === 0) return [];
  const width = h.is64 ? 8 : 4;
  const at = map.offset(dir.rva, 4 * width);
  if (at < 0) {
    ctx.warn('TLS directory lies outside the file');
    return [];
  }
  const v = ctx.v;
  const read = (offset: number): number => v.u32(offset) + (h.is64 ? v.u32(offset + 4) * 0x100000000 : 0);
  const array = read(at + 3 * width);
  if (array === 0) return [];
  const out: EntryPoint[] = [];
  for (let i = 0; ; i++) {
    if (i >= LIMITS.tlsCallbacks) {
      ctx.warn(`TLS callbacks capped at ${LIMITS.tlsCallbacks}`);
      break;
    }
    const slot = map.offsetOfVa(array + i * width, width);
    if (slot < 0) {
      ctx.warn('TLS callback array runs outside the file');
      break;
    }
    const callback = read(slot);
    if (callback === 0) break;
    if (map.isExecRva(callback - h.imageBase)) out.push({ vaddr: callback, kind: 'tls-callback' });
    else ctx.warn(`TLS callback 0x${callback.toString(16)} is outside executable sections`);
  }
  return out;
}
