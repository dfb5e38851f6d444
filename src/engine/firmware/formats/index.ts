// Every container Binlens unpacks, in the order two chunks starting at one offset are tried: file systems
// and archives (whose structure is checked most strictly) before boot images, compressed streams, carved
// executables and text encodings. A new format is its reader here and one line in this list.
import type { FirmwareFormat } from '../format.js';
import { androidBootFormat } from './android-boot.js';
import { androidSparseFormat } from './android-sparse.js';
import { arFormat } from './ar.js';
import { cpioFormat } from './cpio.js';
import { cramfsFormat } from './cramfs.js';
import { elfFormat, machoFormat, peFormat } from './executables.js';
import { extFormat } from './ext/index.js';
import { fatFormat } from './fat.js';
import { fdtFormat } from './fdt.js';
import { intelHexFormat } from './intel-hex.js';
import { iso9660Format } from './iso9660.js';
import { jffs2Format } from './jffs2/index.js';
import { romfsFormat } from './romfs.js';
import { sevenZipFormat } from './sevenzip/index.js';
import { squashfsFormat } from './squashfs/index.js';
import { srecFormat } from './srec.js';
import { STREAM_FORMATS } from './streams.js';
import { tarFormat } from './tar.js';
import { trxFormat } from './trx.js';
import { ubiFormat } from './ubi/index.js';
import { ubifsFormat } from './ubifs/index.js';
import { uimageFormat } from './uimage.js';
import { zipFormat } from './zip/index.js';

export const FIRMWARE_FORMATS: readonly FirmwareFormat[] = [
  squashfsFormat,
  jffs2Format,
  ubiFormat,
  ubifsFormat,
  cramfsFormat,
  romfsFormat,
  extFormat,
  iso9660Format,
  fatFormat,
  tarFormat,
  cpioFormat,
  zipFormat,
  sevenZipFormat,
  arFormat,
  uimageFormat,
  fdtFormat,
  trxFormat,
  androidBootFormat,
  androidSparseFormat,
  ...STREAM_FORMATS,
  elfFormat,
  peFormat,
  machoFormat,
  intelHexFormat,
  srecFormat,
];
