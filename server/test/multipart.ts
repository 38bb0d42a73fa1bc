// A multipart/form-data body for app.inject: text fields, then at most one file.

export interface MultipartFile {
  field: string;
  filename: string;
  contentType: string;
  bytes: Buffer;
}

export function multipartBody(
  fields: Record<string, string>,
  file?: MultipartFile,
): { payload: Buffer; headers: { 'content-type': string } } {
  const boundary = '----lc-test-boundary';
  const part = (disposition: string, extra = '') =>
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; ${disposition}\r\n${extra}\r\n`);
  const chunks: Buffer[] = Object.entries(fields).map(([name, value]) =>
    Buffer.concat([part(`name="${name}"`), Buffer.from(`${value}\r\n`)]),
  );
  if (file) {
    chunks.push(
      part(
        `name="${file.field}"; filename="${file.filename}"`,
        `Content-Type: ${file.contentType}\r\n`,
      ),
      file.bytes,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}
