import { Type } from '@sinclair/typebox';
import { Envelope, Nullable } from './envelope.js';
import { UploadFileType } from './enums.js';
import { TuningQuery } from './tuning.js';

export const UploadQuery = Type.Object({
  packed_password: Type.Optional(
    Type.String({
      description: 'The password of a packed upload in the reference. Accepted and ignored: Binlens unpacks nothing.',
    }),
  ),
  ...TuningQuery,
});

/** Documents the multipart body; the route parses it as a stream, so Fastify never validates it whole. */
export const UploadBody = Type.Object({
  upload_file_type: UploadFileType,
  file: Type.String({ format: 'binary' }),
  force_overwrite: Type.Optional(
    Type.Boolean({
      default: false,
      description: 'Accepted and ignored: uploading the same content again is always accepted.',
    }),
  ),
});

export const UploadResponse = Type.Object({
  sha_256_hash: Type.String(),
  file_type: UploadFileType,
  filename: Type.String(),
});

export const UploadEnvelope = Envelope(Nullable(UploadResponse));
