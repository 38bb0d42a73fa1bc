// `npm run cert -- [name ...]`: a self-signed certificate for a LAN trial in DATA_DIR/tls, and the
// two settings that make the server use it.
import path from 'node:path';
import { defaultNames, writeSelfSignedCertificate } from './tls/self-signed.ts';

const dataDir = path.resolve(process.env.DATA_DIR?.trim() || 'data');
const names = defaultNames(process.argv.slice(2));
const files = await writeSelfSignedCertificate(path.join(dataDir, 'tls'), names);
console.log(`Self-signed certificate for ${names.join(', ')}:`);
console.log(`  TLS_CERT=${files.cert}`);
console.log(`  TLS_KEY=${files.key}`);
console.log('Start with both set, e.g.:');
console.log(`  TLS_CERT=${files.cert} TLS_KEY=${files.key} npm start`);
