// Hand-built multipart/form-data bodies, for uploads with missing, extra or misnamed parts.

export interface FormPart {
  name: string;
  value: string | Buffer;
  /** Set for a file part. */
  filename?: string;
}

export function multipartBody(parts: FormPart[]): { payload: Buffer; contentType: string } {
  const boundary = '----binlens-test-form';
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition = `form-data; name="${p.name}"${p.filename === undefined ? '' : `; filename="${p.filename}"`}`;
    const type = p.filename === undefined ? '' : 'Content-Type: application/octet-stream\r\n';
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n${type}\r\n`));
    chunks.push(Buffer.isBuffer(p.value) ? p.value : Buffer.from(p.value));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}
