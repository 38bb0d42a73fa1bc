// A self-signed certificate for a LAN trial: phones open the camera only on a secure page, and a
// plant's own CA or a proxy with a real certificate is the way for production (docs/deployment.md).
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { generate } from 'selfsigned';

export interface CertificateFiles {
  cert: string;
  key: string;
}

/** Browsers refuse certificates valid for longer than 398 days. */
const VALID_DAYS = 397;

/** The names a phone on the LAN may use: those given, this host's name, localhost and every IPv4. */
export function defaultNames(given: string[]): string[] {
  const addresses = Object.values(os.networkInterfaces())
    .flat()
    .filter((entry) => entry && entry.family === 'IPv4')
    .map((entry) => entry?.address as string);
  return [...new Set([...given, os.hostname(), 'localhost', '127.0.0.1', ...addresses])];
}

/** Writes `cert.pem` and `key.pem` (mode 600) into `dir` for these DNS names and IP addresses. */
export async function writeSelfSignedCertificate(
  dir: string,
  names: string[],
): Promise<CertificateFiles> {
  const [commonName = 'localhost'] = names;
  const notBeforeDate = new Date();
  const notAfterDate = new Date(notBeforeDate.getTime() + VALID_DAYS * 24 * 3600 * 1000);
  const pems = await generate([{ name: 'commonName', value: commonName }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate,
    notAfterDate,
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: names.map((name) =>
          net.isIP(name) ? { type: 7, ip: name } : { type: 2, value: name },
        ),
      },
    ],
  });
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const files = { cert: path.join(dir, 'cert.pem'), key: path.join(dir, 'key.pem') };
  fs.writeFileSync(files.cert, pems.cert, { mode: 0o600 });
  fs.writeFileSync(files.key, pems.private, { mode: 0o600 });
  return files;
}
