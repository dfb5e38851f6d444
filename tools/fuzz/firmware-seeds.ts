// The firmware target's seeds: images built in memory (always) and by Debian's tools (those installed),
// built once per run. They carry no field map: firmware-mutators.ts damages them by bytes and blocks.
import { mapFields } from './field-map.js';
import { handBuiltImages } from './firmware-hand-images.js';
import { toolBuiltImages } from './firmware-tool-images.js';
import type { Seed } from './seeds.js';

/** Larger seeds are left out: an execution should stay near 10 ms (the largest, UBI with UBIFS, is ~210 KiB). */
export const MAX_FIRMWARE_SEED_BYTES = 256 * 1024;

export interface FirmwareSeeds {
  seeds: Seed[];
  /** Why some tool-built seeds are absent: `<command> is not installed (apt-get install <package>)`. */
  missing: string[];
}

export function firmwareSeeds(): FirmwareSeeds {
  const { images, missing } = toolBuiltImages();
  const seeds = [...handBuiltImages(), ...images].map(({ name, bytes }) => {
    if (bytes.length > MAX_FIRMWARE_SEED_BYTES)
      throw new Error(`firmware seed ${name} has ${bytes.length} bytes, over ${MAX_FIRMWARE_SEED_BYTES}`);
    // A plain copy: a Buffer's slice() is a view (often of Node's shared pool), and mutants are transferred.
    return { name, format: 'firmware' as const, bytes: new Uint8Array(bytes), map: mapFields(new Uint8Array(0)) };
  });
  return { seeds, missing };
}
