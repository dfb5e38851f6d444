// Texts of the Firmware operations: an image unpacked into its files, the executables among them analysed.
import type { OperationDoc } from './operation-doc.js';

const WHAT = [
  'Every chunk of the image is found by signature and structure, anywhere in it, and unpacked recursively',
  '(10 levels by default): compressed streams (gzip, xz, LZMA, bzip2, Zstandard, LZ4, lzop, zlib), archives',
  '(tar, cpio, zip — encrypted ones with `password`), file systems (SquashFS, JFFS2) and boot images',
  '(uImage, FIT, TRX, Android boot and sparse images, Intel HEX, S-records), and executables (ELF, PE,',
  "Mach-O) are carved from raw ranges. Every write is confined to the task's own directory: names with `..`",
  'are refused, links, devices and FIFOs are recorded and never made, and bytes, files, depth and time are',
  'bounded (BINLENS_FIRMWARE_*); each refusal is a problem in the report and the rest goes on.',
].join('\n');

export const firmwareDocs = {
  uploadFirmware: {
    summary: 'Upload a firmware image to unpack',
    description: [
      WHAT,
      '',
      'Multipart: `file` (the image) and optionally `password`. Answers 201 with the `task_id` to follow,',
      "the image's `binary_id` (its children are the executables found: `GET /v2/binaries/{binary_id}/related`)",
      'and `status` `PENDING`. The unpacking runs as a job; every executable found becomes a binary of its',
      'own, analysed with the model of its CPU (MIPS, ARM, …), visible as the image is (to the uploader).',
    ].join('\n'),
  },
  getBinariesForFirmwareTask: {
    summary: 'Get what a firmware image held',
    description: [
      '`status` (`PENDING`, `RUNNING`, `COMPLETED`, `ERROR` with `error`) and `progress` (files and bytes',
      'written so far); once complete, `tree` (each chunk of the image by offset, size, format and entropy, the',
      'files it gave, and the chunks found in those), `binaries` (the executables, each with its `binary_id`, its',
      '`analysis_id`, type, SHA-256, `name` in its container and `location` — the offset path from the image',
      'down), `files` (every other file with its type, size, name, SHA-256 and where to download it), `links`',
      '(symbolic and hard links, devices, FIFOs: recorded, never created), `unknown` (ranges nothing',
      'recognised, with their entropy) and `problems`.',
      "A chunk's `entropy` (bits per byte, 0–8, over its first MiB) is null in the report of a task unpacked",
      'before Binlens recorded it. A task the caller cannot see answers 404.',
    ].join('\n'),
  },
  getFirmwareFile: {
    summary: 'Download a file a firmware task extracted',
    description:
      'The bytes of a file the task extracted, by its SHA-256 (`files[].download` of the task). Binlens extension.',
  },
} satisfies Record<string, OperationDoc>;
