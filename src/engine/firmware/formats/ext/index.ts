// ext2, ext3 and ext4, the Linux file systems of eMMC and disk images in firmware. Files here: superblock
// (fields and features), volume (bytes, group descriptors, inode tables), inodes, runs, block-map (ext2/3
// indirect blocks), extents (ext4 trees), contents (file bytes, symlink targets, inline data),
// directories (linear listings, htree read linearly), walk (the tree as entries). The journal is not
// replayed: a volume that needs recovery is read as last written to its home blocks. Imports only the
// firmware compression errors and format.ts.
import type { FirmwareFormat, Entry, ReadContext } from '../../format.js';
import { DecodeError } from '../../compression/errors.js';
import {
  describe,
  INCOMPAT_COMPRESSION,
  INCOMPAT_ENCRYPT,
  INCOMPAT_JOURNAL_DEV,
  INCOMPAT_RECOVER,
  MAGIC_AT,
  readSuperblock,
  type Superblock,
} from './superblock.js';
import { Volume } from './volume.js';
import { walk } from './walk.js';

function* entries(bytes: Uint8Array, sb: Superblock, whole: number, ctx: ReadContext): Generator<Entry> {
  if (sb.incompat & INCOMPAT_JOURNAL_DEV) throw new DecodeError('ext: an external journal device holds no files');
  if (sb.incompat & INCOMPAT_COMPRESSION) throw new DecodeError('ext: e2compr compression is not supported');
  if (bytes.length < whole) ctx.problem(`ext: image truncated: ${bytes.length} of its ${whole} bytes`);
  if (sb.incompat & INCOMPAT_RECOVER) ctx.problem('ext: the journal needs recovery; read without replaying it');
  if (sb.incompat & INCOMPAT_ENCRYPT) ctx.problem('ext: encryption is on; encrypted names and data stay encrypted');
  yield* walk(new Volume(bytes, sb, ctx));
}

export const extFormat: FirmwareFormat = {
  name: 'ext',
  magics: [{ bytes: [0x53, 0xef], at: MAGIC_AT }],
  probe(data, offset) {
    const sb = readSuperblock(data, offset);
    if (!sb) return null;
    const whole = sb.blocksCount * sb.blockSize;
    const size = Math.min(whole, data.length - offset);
    const bytes = data.subarray(offset, offset + size);
    return {
      size,
      description: describe(sb) + (size < whole ? ', truncated' : ''),
      entries: (ctx) => entries(bytes, sb, whole, ctx),
    };
  },
};
