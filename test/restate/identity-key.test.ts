import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { identityKeyOf, parseIdentityKey } from '../../src/restate/identity-key.js';

describe('Restate request-identity keys', () => {
  it('spells an Ed25519 public key as Restate does: publickeyv1_ and the raw 32 bytes in base58', () => {
    // RFC 8032's first test key: its public key is d75a9801...511a, base58 of those 32 bytes below.
    const pem = `-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIJ1hsZ3v/VpguoRK9JLsLMREScVpezJpGXA7rAMcrn9g\n-----END PRIVATE KEY-----\n`;
    expect(identityKeyOf(pem)).toBe('publickeyv1_FVen3X669xLzsi6N2V91DoiyzHzg1uAgqiT8jZ9nS96Z');
    const fresh = identityKeyOf(generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString());
    expect(parseIdentityKey(fresh)).toBe(fresh);
  });

  it('refuses what is not one, and a key that is not Ed25519', () => {
    expect(() => parseIdentityKey('publickeyv1_0OIl0OIl0OIl0OIl0OIl0OIl0OIl0OIl0OIl')).toThrow(/not a Restate request-identity public key/);
    expect(() => parseIdentityKey('FVen3X669xLzsi6N2V91DoiyzHzg1uAgqiT8jZ9nS96Z')).toThrow(/publickeyv1_/);
    const rsa = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    expect(() => identityKeyOf(rsa)).toThrow(/Ed25519/);
  });
});
