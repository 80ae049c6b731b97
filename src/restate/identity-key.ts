import { createPrivateKey, createPublicKey } from 'node:crypto';
import { UsageError } from '../errors/xagent-error.js';

/** Restate's spelling of a request-identity public key: `publickeyv1_` and the raw Ed25519 key in base58. */
const PREFIX = 'publickeyv1_';
const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/**
 * Checks a `--identity-key` value: a worker given one refuses every request the server did not sign.
 * @throws UsageError for anything that is not `publickeyv1_<base58>`
 */
export function parseIdentityKey(value: string): string {
  const body = value.startsWith(PREFIX) ? value.slice(PREFIX.length) : '';
  if (body.length < 40 || [...body].some((char) => !BASE58.includes(char)))
    throw new UsageError(
      `--identity-key "${value}" is not a Restate request-identity public key (publickeyv1_ and base58; ` +
        'the server signs with the private key named by RESTATE_REQUEST_IDENTITY_PRIVATE_KEY_PEM_FILE)',
    );
  return value;
}

/**
 * The public key (as `--identity-key` takes it) of an Ed25519 private key in PEM, the file the
 * server signs requests with.
 * @example identityKeyOf(readFileSync('restate-identity.pem', 'utf8')) // 'publickeyv1_...'
 */
export function identityKeyOf(privatePem: string): string {
  const jwk = createPublicKey(createPrivateKey(privatePem)).export({ format: 'jwk' });
  if (jwk.crv !== 'Ed25519' || typeof jwk.x !== 'string') throw new UsageError('the request-identity key must be an Ed25519 key');
  return PREFIX + base58(Buffer.from(jwk.x, 'base64url'));
}

function base58(bytes: Buffer): string {
  let number = BigInt(`0x${bytes.toString('hex') || '0'}`);
  let out = '';
  while (number > 0n) {
    out = BASE58[Number(number % 58n)] + out;
    number /= 58n;
  }
  for (const byte of bytes) {
    if (byte !== 0) break;
    out = `1${out}`;
  }
  return out;
}
