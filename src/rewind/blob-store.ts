import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { blobPath, blobsDir } from './files.js';
import { writeFileAtomicSync } from '../system/atomic-write-sync.js';

/** What a session keeps of file contents for rewind, unless XAGENT_CHECKPOINT_CAP_BYTES says otherwise. */
export const DEFAULT_CHECKPOINT_CAP_BYTES = 100 * 1024 * 1024;

export function checkpointCap(env: NodeJS.ProcessEnv = process.env): number {
  const raw = Number(env.XAGENT_CHECKPOINT_CAP_BYTES);
  return Number.isSafeInteger(raw) && raw >= 0 && env.XAGENT_CHECKPOINT_CAP_BYTES !== '' ? raw : DEFAULT_CHECKPOINT_CAP_BYTES;
}

/**
 * Content-addressed file versions of one session: a blob is named by its SHA-256, so a file
 * edited 100 times costs its distinct versions only. A blob appears whole (written aside, then
 * renamed) or not at all.
 */
export class BlobStore {
  private used: number | null = null;

  constructor(
    private readonly sessionDir: string,
    readonly cap: number,
  ) {}

  has(sha256: string): boolean {
    return existsSync(blobPath(this.sessionDir, sha256));
  }

  /** Bytes the store holds (counted once, then kept up to date). */
  size(): number {
    if (this.used === null) {
      const dir = blobsDir(this.sessionDir);
      this.used = existsSync(dir) ? readdirSync(dir).reduce((sum, name) => sum + statSync(`${dir}/${name}`).size, 0) : 0;
    }
    return this.used;
  }

  /** True when `bytes` more fit under the cap (a version already stored always fits). */
  fits(sha256: string, bytes: number): boolean {
    return this.has(sha256) || this.size() + bytes <= this.cap;
  }

  put(sha256: string, bytes: Buffer): void {
    if (this.has(sha256)) return;
    mkdirSync(blobsDir(this.sessionDir), { recursive: true });
    writeFileAtomicSync(blobPath(this.sessionDir, sha256), bytes, { mode: 0o600 });
    this.used = this.size() + bytes.length;
  }

  get(sha256: string): Buffer {
    return readFileSync(blobPath(this.sessionDir, sha256));
  }
}
