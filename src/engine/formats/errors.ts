// Errors of the container-format parsers. A FormatError means the bytes are not a usable file of the
// claimed format at all (no valid header): a permanent failure, so workers must not retry it. Damage a
// parser can work around is reported in `BinaryImage.diagnostics` instead of being thrown.
import type { BinaryFormat } from '../../contracts/result.js';

export type FormatErrorReason = 'bad-magic' | 'truncated' | 'bad-header';

export class FormatError extends Error {
  /** Malformed input never parses on a second try. */
  readonly permanent = true;

  constructor(
    readonly format: BinaryFormat,
    readonly reason: FormatErrorReason,
    message: string,
  ) {
    super(message);
    this.name = 'FormatError';
  }
}
