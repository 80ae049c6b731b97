import { generateKeyPairSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import http2 from 'node:http2';
import { identityKeyOf } from '../../src/restate/identity-key.js';

/** A fresh Ed25519 signing key for a Restate server, written where `pemFile` says; returns the public key a worker takes. */
export function newIdentityKey(pemFile: string): string {
  const pem = generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
  writeFileSync(pemFile, pem, { mode: 0o600 });
  return identityKeyOf(pem);
}

/** One request straight to a worker's port (HTTP/2 cleartext, as the server speaks to it), headers as given: nothing signs it. */
export async function requestWorker(
  port: number,
  path: string,
  headers: Record<string, string> = {},
  body = '',
): Promise<{ status: number; body: string }> {
  const session = http2.connect(`http://127.0.0.1:${port}`);
  try {
    return await new Promise((resolve, reject) => {
      session.once('error', reject);
      const stream = session.request({ ':method': 'POST', ':path': path, ...headers });
      let status = 0;
      let text = '';
      stream.on('response', (head) => (status = Number(head[':status'])));
      stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
      stream.on('end', () => resolve({ status, body: text }));
      stream.on('error', reject);
      stream.end(body);
    });
  } finally {
    session.close();
  }
}
