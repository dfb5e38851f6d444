// Errors of the disassembly layer. Decoding itself never throws (bad bytes decode as Flow.Invalid); only
// creating a decoder can fail: a mode the engine has no decoder for (permanent: retrying changes nothing)
// or a WebAssembly backend that does not load (a broken installation, also not fixed by retrying the job).
export type DecoderErrorReason = 'unsupported-mode' | 'backend-unavailable';

export class DecoderError extends Error {
  readonly permanent = true;

  constructor(
    readonly reason: DecoderErrorReason,
    message: string,
  ) {
    super(message);
    this.name = 'DecoderError';
  }
}
