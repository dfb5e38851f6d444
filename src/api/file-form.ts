// A multipart form of one file part named `file` and text fields (POST /v2/upload, POST /v2/firmware): the
// file is streamed into the blob store as it arrives (memory does not grow with it); fields may come before
// or after it and are checked at the end; a refused request keeps nothing it streamed.
import type { FastifyRequest } from 'fastify';
import type { StreamedUpload, UploadsService } from '../services/index.js';
import { errors } from '../shared/errors.js';
import { fieldBounds } from './validation.js';

const MAX_NAME = fieldBounds('filename').maxLength;

export const invalidField = (field: string, reason: string) => errors.validation().withFields([{ field, reason }]);

/**
 * The streamed file and the text fields; `use` runs with them and its result is returned. A field not in
 * `fields`, a second or missing file, or a failure of `use` discards the stored file.
 */
export async function withFileForm<T>(
  req: FastifyRequest,
  uploads: UploadsService,
  fields: ReadonlySet<string>,
  usage: string,
  use: (file: StreamedUpload, fields: Record<string, string>) => Promise<T>,
): Promise<T> {
  if (!req.isMultipart()) throw invalidField('body', `must be multipart/form-data with ${usage}`);
  const values: Record<string, string> = {};
  let stored: StreamedUpload | null = null;
  try {
    for await (const part of req.parts()) {
      if (part.type === 'file') {
        // A file name is stored as text (bounded like every text field), and PostgreSQL text cannot hold U+0000.
        const name = part.filename;
        const problem =
          part.fieldname !== 'file'
            ? invalidField(`body.${part.fieldname}`, 'is not a file field of this request: send the file as `file`')
            : stored
              ? invalidField('body.file', 'came twice: upload one file per request')
              : name.includes('\0') || name.length > MAX_NAME
                ? invalidField('body.file', `needs a file name without NUL of at most ${MAX_NAME} characters`)
                : null;
        if (problem) {
          part.file.resume();
          throw problem;
        }
        stored = await uploads.stream(part.file, part.filename || 'unnamed');
      } else {
        values[part.fieldname] = String(part.value);
      }
    }
    const unknown = Object.keys(values).find((f) => !fields.has(f));
    if (unknown !== undefined)
      throw invalidField(`body.${unknown}`, 'is not a field of this request: check its spelling');
    if (!stored) throw invalidField('body.file', 'is required: send the file as a file part named `file`');
    return await use(stored, values);
  } catch (err) {
    if (stored) await uploads.discard(stored);
    throw err;
  }
}
