import { Type } from '@sinclair/typebox';
import { Envelope, Nullable } from './envelope.js';

export const BinaryDetailsResponse = Type.Object({
  arch: Type.String(),
  bits: Type.Integer(),
  crc32: Type.String(),
  Class: Type.String(),
  entropy: Type.Number(),
  file_size: Type.Integer(),
  language: Type.String(),
  md5: Type.String(),
  machine: Type.String(),
  os: Type.String(),
  sha1: Type.String(),
  sha256: Type.String(),
  ssdeep: Nullable(Type.String()),
  static: Type.Boolean(),
  stripped: Type.Boolean(),
  sub_sys: Type.String(),
  tlsh: Type.String(),
  type: Type.String(),
  debug: Type.Boolean(),
  first_seen: Type.String({ format: 'date-time' }),
});

export const BinaryExternalsResponse = Type.Object({
  sha_256_hash: Type.String(),
  vt: Type.Object({}, { additionalProperties: true }),
  vt_last_updated: Type.String({ format: 'date-time' }),
  mb: Type.Object({}, { additionalProperties: true }),
  mb_last_updated: Type.String({ format: 'date-time' }),
});

/** A binary as a relative of another: its analysis when it has one the caller may see. */
export const RelativeBinaryResponse = Type.Object({
  binary_id: Type.Integer(),
  analysis_id: Type.Optional(Nullable(Type.Integer())),
  name: Type.String(),
  sha256: Type.String(),
  location: Type.Optional(
    Nullable(
      Type.String({
        description:
          'Binlens extension: where in its parent it was found — a dump name, or offsets and formats from the image down (`0x40 uimage:kernel > 0x0 cpio:bin/sh`); null for a binary found in none.',
      }),
    ),
  ),
  origin: Type.Optional(
    Nullable(
      Type.Union([Type.Literal('dump'), Type.Literal('firmware')], {
        description:
          'Binlens extension: what found it in its parent — a dynamic execution (`dump`: a memory dump or a dropped file) or a firmware unpacking (`firmware`); null for a binary found in none.',
      }),
    ),
  ),
  task_id: Type.Optional(
    Nullable(
      Type.String({
        description:
          'Binlens extension: the firmware task (`GET /v2/firmware/get-binaries/{task_id}`) whose image this binary is, when it is one the caller may see; else null.',
      }),
    ),
  ),
});

export const ChildBinariesResponse = Type.Object({
  children: Type.Array(RelativeBinaryResponse),
  parent: Type.Optional(Nullable(RelativeBinaryResponse)),
});

/**
 * Where the task that finds a binary's children stands: PENDING, COMPLETED, ERROR, or NONE when no task
 * looks inside it (docs/decisions.md, "Child binaries").
 */
export const BinariesRelatedStatusResponse = Type.Object({ status: Type.String() });

export const BinaryEnvelopes = {
  details: Envelope(Nullable(BinaryDetailsResponse)),
  externals: Envelope(Nullable(BinaryExternalsResponse)),
  related: Envelope(Nullable(ChildBinariesResponse)),
  relatedStatus: Envelope(Nullable(BinariesRelatedStatusResponse)),
};
