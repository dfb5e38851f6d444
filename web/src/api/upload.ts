// POST /v2/upload with upload progress: fetch cannot report it, XMLHttpRequest can.
import { currentKey } from '../auth/key';
import { ApiError, errorOf } from './client';

export type UploadFileType = 'BINARY' | 'DEBUG' | 'PACKED' | 'FIRMWARE';

/** Uploads `file`; `onProgress` gets the fraction sent (0..1). Resolves with the stored file's SHA-256. */
export function uploadFile(file: File, type: UploadFileType, onProgress: (sent: number) => void): Promise<string> {
  const form = new FormData();
  form.append('upload_file_type', type);
  form.append('file', file, file.name);
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/v2/upload');
    xhr.setRequestHeader('Authorization', currentKey() ?? '');
    xhr.responseType = 'json';
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total);
    xhr.onerror = () => reject(new ApiError('The upload was interrupted', 0, 'check the connection and try again'));
    xhr.onload = () => {
      const sha = (xhr.response as { data?: { sha_256_hash?: string } | null } | null)?.data?.sha_256_hash;
      if (xhr.status >= 200 && xhr.status < 300 && sha) resolve(sha);
      else reject(errorOf(xhr.response, xhr.status));
    };
    xhr.send(form);
  });
}
