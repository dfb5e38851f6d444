// Texts of the Models, Config and AuthenticationUsers operations: what the server and the caller are.
import type { OperationDoc } from './operation-doc.js';

export const platformDocs = {
  getModels: {
    summary: 'List the analysis models',
    description: [
      'The models an analysis may run with, one per architecture and platform (`binnet-0.7-<arch>-<platform>`).',
      "A `model_id` elsewhere is a position in this list, from 1. Binlens adds five to the reference's nine:",
      "32-bit ARM (Linux, Android), MIPS32 (Linux) and macOS (x86-64, AArch64), at the end so the reference's",
      'ids keep their numbers. Create picks the model from the binary; requeue may name another.',
    ].join('\n'),
  },
  getConfig: {
    summary: "Get the server's settings for clients",
    description: [
      '`max_file_size_bytes`: the largest upload this server accepts (its `BINLENS_MAX_UPLOAD_BYTES`).',
      '`dashboard_url` is empty and the AI-decompiler lists are empty: Binlens has neither.',
    ].join('\n'),
  },
  getRequesterUserInfo: {
    summary: "Get the caller's account",
    description: [
      'The user the API key belongs to: id, username, names, email, role (`USER`; `ADMIN` for administrators) and creation',
      'time. A quick way to check a key: a missing or unknown one answers 401.',
    ].join('\n'),
  },
} satisfies Record<string, OperationDoc>;
