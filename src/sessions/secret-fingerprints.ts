import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { replaceOwnFile } from '../system/replace-own-file.js';

/**
 * What a session remembers of the secrets its run had (the API key, the auth token) so that a
 * later `xagent inspect --export`, run without them in the environment, still keeps them off the
 * page: each secret's length, first four characters and SHA-256, never the secret itself. The
 * file stays in the session folder; the export does not carry it.
 */
export interface SecretFingerprint {
  length: number;
  head: string;
  sha256: string;
}

const FILE = 'secrets.json';
const HEAD = 4;
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** Fingerprints of the secrets at least 8 characters long (as the redactor's exact list). */
export function fingerprintsOf(secrets: ReadonlyArray<string | undefined>): SecretFingerprint[] {
  const unique = new Set(secrets.filter((s): s is string => typeof s === 'string' && s.length >= 8));
  return [...unique].map((secret) => ({ length: secret.length, head: secret.slice(0, HEAD), sha256: sha256(secret) }));
}

/**
 * Adds the fingerprints of `secrets` to the session's file (written atomically, mode 0600); never
 * rejects. Without blocking: a thousand tasks starting at once each flush a file, and a synchronous
 * flush each was a stall of seconds for every task of the process.
 */
export async function rememberSecrets(sessionDir: string, secrets: ReadonlyArray<string | undefined>): Promise<void> {
  const known = readSecretFingerprints(sessionDir);
  const added = fingerprintsOf(secrets).filter((f) => !known.some((k) => k.sha256 === f.sha256));
  if (added.length === 0) return;
  // Flushed to the disk: an export after a crash must still find the secrets of lines that survived it.
  await replaceOwnFile(path.join(sessionDir, FILE), `${JSON.stringify({ v: 1, fingerprints: [...known, ...added] })}\n`, {
    durable: true,
  }).catch(() => {
    // Not remembered: an export made with the secret in the environment still removes it.
  });
}

export function readSecretFingerprints(sessionDir: string): SecretFingerprint[] {
  const file = path.join(sessionDir, FILE);
  if (!existsSync(file)) return [];
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as { fingerprints?: unknown };
    return Array.isArray(parsed.fingerprints)
      ? parsed.fingerprints.filter(
          (f): f is SecretFingerprint =>
            typeof f?.length === 'number' && f.length >= 8 && typeof f.head === 'string' && typeof f.sha256 === 'string',
        )
      : [];
  } catch {
    return [];
  }
}

/**
 * The secrets `text` holds, found by their fingerprints: each place a head occurs, the substring
 * of the secret's length is hashed and compared.
 * @example secretsIn('token abcd1234efgh here', fingerprintsOf(['abcd1234efgh'])) // ['abcd1234efgh']
 */
export function secretsIn(text: string, fingerprints: readonly SecretFingerprint[]): string[] {
  const found = new Set<string>();
  for (const { length, head, sha256: hash } of fingerprints) {
    for (let at = text.indexOf(head); at >= 0 && at + length <= text.length; at = text.indexOf(head, at + 1)) {
      const candidate = text.slice(at, at + length);
      if (sha256(candidate) === hash) found.add(candidate);
    }
  }
  return [...found];
}

/**
 * The secrets the session's own files hold, found by the fingerprints its run left: for a redactor
 * run without them in the environment (`xagent inspect --export` later, on another shell).
 * @example createSanitizer({ secrets: [...secretsFrom(process.env), ...secretsInSession(dir)] })
 */
export function secretsInSession(sessionDir: string): string[] {
  const fingerprints = readSecretFingerprints(sessionDir);
  if (fingerprints.length === 0) return [];
  const found = new Set<string>();
  for (const name of ['trace.jsonl', 'transcript.jsonl', 'audit.jsonl']) {
    const file = path.join(sessionDir, name);
    if (!existsSync(file)) continue;
    for (const secret of secretsIn(readFileSync(file, 'utf8'), fingerprints)) found.add(secret);
  }
  return [...found];
}
