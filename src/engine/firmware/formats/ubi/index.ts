// UBI, the volume layer on raw NAND that most recent routers ship: the image is a run of physical erase
// blocks (PEBs), each opening with an erase-counter header ("UBI#") and, when in use, a volume-identifier
// header saying which volume's logical erase block (LEB) it holds. headers.ts reads the headers, pebs.ts
// walks the PEBs, volumes.ts reads the volume table and puts each volume's LEBs in order. Each volume comes
// out as one file, `<name>.ubivol`, which the unpacker then scans in turn (a UBIFS, a SquashFS, a kernel).
// Imports only the firmware compression errors and the project's CRC-32.
import type { FirmwareFormat, Entry, ReadContext } from '../../format.js';
import { scanPebs, type PebScan } from './pebs.js';
import { INTERNAL_VOLUMES, volumeBytes, volumeTable } from './volumes.js';

function* entries(data: Uint8Array, scan: PebScan, ctx: ReadContext): Generator<Entry> {
  for (const p of scan.problems) ctx.problem(`ubi: ${p}`);
  if (scan.moreProblems) ctx.problem(`ubi: ${scan.moreProblems} more damaged PEBs`);
  const table = volumeTable(data, scan, (m) => ctx.problem(`ubi: ${m}`));
  const ids = new Set([...(table?.keys() ?? []), ...[...scan.volumes.keys()].filter((id) => id < INTERNAL_VOLUMES)]);
  for (const volId of [...ids].sort((a, b) => a - b)) {
    const record = table?.get(volId);
    const name = record?.name ?? `volume-${volId}`;
    const problem = (m: string) => ctx.problem(`ubi: volume ${volId} (${name}): ${m}`);
    if (table && !record) problem('not in the volume table (a deleted volume?)');
    if (record?.updating) problem('its update was never finished; the contents may be partial');
    const bytes = volumeBytes(data, scan, scan.volumes.get(volId) ?? new Map(), record, ctx.remaining(), problem);
    if (bytes) yield { path: `${name}.ubivol`, kind: 'file', data: bytes };
  }
}

export const ubiFormat: FirmwareFormat = {
  name: 'ubi',
  magics: [{ bytes: [0x55, 0x42, 0x49, 0x23] }],
  probe(data, offset) {
    const scan = scanPebs(data, offset);
    if (!scan) return null;
    const volumes = [...scan.volumes.keys()].filter((id) => id < INTERNAL_VOLUMES).length;
    return {
      size: scan.size,
      description:
        `${scan.pebSize >> 10} KiB PEBs, ${scan.lebSize}-byte LEBs, headers at ${scan.vidOffset}/${scan.dataOffset}, ` +
        `${scan.pebs} PEBs, ${volumes} volumes with data`,
      entries: (ctx) => entries(data, scan, ctx),
    };
  },
};
