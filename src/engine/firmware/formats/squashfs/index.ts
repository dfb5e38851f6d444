// SquashFS 4.0, the read-only root filesystem of most Linux routers and IoT devices, in either byte order
// and with any of its six compressors. Files here: view (byte order), superblock, compressors, image (bytes,
// decoder, budget), metadata (blocks and tables), inodes, directories, files (blocks, fragments, sparse),
// walk (the tree as entries). Imports only the firmware compression modules and format.ts.
import type { FirmwareFormat } from '../../format.js';
import { COMPRESSORS } from './compressors.js';
import { Image } from './image.js';
import { chunkSize, MAGIC_BE, MAGIC_LE, readSuperblock } from './superblock.js';
import { walk } from './walk.js';

export const squashfsFormat: FirmwareFormat = {
  name: 'squashfs',
  magics: [{ bytes: MAGIC_LE }, { bytes: MAGIC_BE }],
  probe(data, offset) {
    const sb = readSuperblock(data, offset);
    if (!sb) return null;
    const order = sb.littleEndian ? 'little endian' : 'big endian';
    return {
      size: chunkSize(data, offset, sb),
      description: `SquashFS 4.0 (${order}), ${COMPRESSORS[sb.compression]!.name}, ${sb.inodeCount} inodes, ${sb.blockSize >> 10} KiB blocks`,
      entries: (ctx) => walk(new Image(data, offset, sb, ctx)),
    };
  },
};
