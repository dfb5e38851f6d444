// Firmware unpacking (issue 14): the upload form, the task, and the extraction it reports — the tree of
// what contains what, the executables found (each a child binary of the image, analysed with its model),
// every other file with its type and hash, and the problems met. The reference publishes no schema for
// either response ("any"): these are Binlens's, in the envelope every response uses.
import { Type } from '@sinclair/typebox';
import { Envelope, Nullable } from './envelope.js';
import { TuningQuery } from './tuning.js';

export const FirmwareUploadBody = Type.Object({
  file: Type.String({ format: 'binary' }),
  password: Type.Optional(
    Type.String({ description: 'Password of encrypted archives inside the image (zip, 7z): tried on each.' }),
  ),
});

export const FirmwareQuery = Type.Object(TuningQuery);

export const FirmwareStatus = Type.Union(
  ['PENDING', 'RUNNING', 'COMPLETED', 'ERROR'].map((s) => Type.Literal(s)),
  { description: 'PENDING (queued), RUNNING, COMPLETED (the extraction is listed) or ERROR (see `error`).' },
);

export const FirmwareTaskCreated = Type.Object({
  task_id: Type.String(),
  /** The image as a binary: its children are the executables found. */
  binary_id: Type.Integer(),
  sha_256_hash: Type.String(),
  status: FirmwareStatus,
});

const FileFields = {
  path: Type.String({ description: 'Where it was written, relative to the extraction (offset-format directories).' }),
  name: Type.String({
    description:
      'Its name in the container it came out of (`bin/sh`), as the container gives it (in a task unpacked before Binlens recorded names: as written under its chunk).',
  }),
  size: Type.Integer(),
  sha256: Type.String(),
  type: Type.String({ description: '`ELF mips 32-bit big endian`, a container format, `text` or `data`.' }),
  location: Type.String({
    description:
      'Offsets and formats from the image down, and the name in the last container: `0x40 uimage:kernel > 0x0 cpio:bin/sh`.',
  }),
};

export const FirmwareBinary = Type.Object({
  ...FileFields,
  binary_id: Type.Integer(),
  analysis_id: Nullable(Type.Integer()),
});

export const FirmwareFile = Type.Object({
  ...FileFields,
  download: Type.String({ description: 'Where its bytes are served.' }),
});

const TreeChunk = Type.Recursive(
  (chunk) =>
    Type.Object({
      offset: Type.Integer(),
      size: Type.Integer(),
      format: Type.String(),
      description: Nullable(Type.String()),
      entropy: Nullable(
        Type.Number({
          minimum: 0,
          maximum: 8,
          description:
            'Shannon entropy of its first MiB, bits per byte; null in reports made before Binlens recorded it.',
        }),
      ),
      files: Type.Array(Type.Object({ path: Type.String(), chunks: Type.Array(chunk) })),
    }),
  { $id: 'FirmwareChunk' },
);

export const FirmwareTask = Type.Object({
  task_id: Type.String(),
  status: FirmwareStatus,
  error: Nullable(Type.String()),
  progress: Nullable(Type.Object({ files: Type.Integer(), bytes: Type.Integer() })),
  firmware: Type.Object({
    binary_id: Type.Integer(),
    name: Type.String(),
    sha256: Type.String(),
    size: Type.Integer(),
  }),
  /** What the image holds: chunks by offset, the files each gave, and the chunks found in those files. */
  tree: Type.Array(TreeChunk),
  binaries: Type.Array(FirmwareBinary),
  files: Type.Array(FirmwareFile),
  links: Type.Array(Type.Object({ path: Type.String(), kind: Type.String(), target: Nullable(Type.String()) })),
  unknown: Type.Array(
    Type.Object({ in: Nullable(Type.String()), offset: Type.Integer(), size: Type.Integer(), entropy: Type.Number() }),
  ),
  problems: Type.Array(Type.Object({ where: Type.String(), message: Type.String() })),
  bytes_written: Type.Integer(),
  stopped: Nullable(Type.String()),
});

export const FirmwareParams = Type.Object({ task_id: Type.String({ maxLength: 64 }) });
export const FirmwareFileParams = Type.Object({
  task_id: Type.String({ maxLength: 64 }),
  sha256: Type.String({ pattern: '^[0-9a-fA-F]{64}$' }),
});

export const FirmwareEnvelopes = {
  created: Envelope(Nullable(FirmwareTaskCreated)),
  task: Envelope(Nullable(FirmwareTask)),
};
