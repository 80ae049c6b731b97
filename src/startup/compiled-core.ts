import { mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { writeFileAtomicSync } from '../system/atomic-write-sync.js';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';

/** Set by scripts/bundle.ts: the SHA-256 of dist/bin/core.cjs (first 16 hex digits). */
declare const XAGENT_CORE_HASH: string | undefined;

/** What the compiled core exports (src/cli/core.ts). */
export interface CompiledCore {
  runCli(): Promise<void>;
}

/**
 * Loads dist/bin/core.cjs, the CLI but the terminal UI as one CommonJS file, through V8's code
 * cache: the bytecode V8 compiled on an earlier run is read back instead of parsing and compiling
 * ~700 kB of JavaScript again. That is ~35 ms of the ~160 ms before a `-p` run's first model
 * request on the bench machine (bench/README.md, issue 17). Node 20 has no code cache for ES
 * modules, hence a CommonJS file run as a vm.Script.
 *
 * The cache lives in $XAGENT_HOME/cache (the user's own folder, never a shared one: V8 runs
 * what it reads there), under a name holding the core's hash, the Node version and the
 * architecture; V8 itself refuses data made by another V8 or with other flags, and then the
 * core compiles from source as it would without a cache. A missing or refused cache is written
 * at exit, with what the run compiled, atomically; a failing write only costs the next run time.
 * XAGENT_CODE_CACHE=0 turns it off. Returns null when the core is not there (a partial build).
 * `url` is dist/bin/core.cjs, next to the `bin` entry (this module sits in a chunk of its own);
 * `home` is XAGENT_HOME.
 * @example const core = loadCompiledCore(new URL('./core.cjs', import.meta.url), xagentHome()); if (core) await core.runCli();
 */
export function loadCompiledCore(url: URL, home: string): CompiledCore | null {
  const file = fileURLToPath(url);
  let source: string;
  try {
    // ASCII (scripts/bundle-core.ts checks), so latin1 reads it as is, one byte a character.
    source = readFileSync(file, 'latin1');
  } catch {
    return null;
  }
  const cacheFile = codeCacheFile(home);
  let cachedData: Buffer | undefined;
  if (cacheFile) {
    try {
      cachedData = readFileSync(cacheFile);
    } catch {
      // no cache yet: this run makes it
    }
  }
  // The file is the module wrapper already (scripts/bundle-core.ts): compiled as read, no second copy.
  const script = new Script(source, { filename: file, ...(cachedData ? { cachedData } : {}) });
  const module = { exports: {} as CompiledCore };
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  run.call(module.exports, module.exports, createRequire(file), module, file, path.dirname(file));
  if (cacheFile && (!cachedData || script.cachedDataRejected)) {
    process.once('exit', () => writeAtomically(cacheFile, script.createCachedData()));
  }
  return module.exports;
}

function codeCacheFile(home: string): string | null {
  if (process.env.XAGENT_CODE_CACHE === '0' || typeof XAGENT_CORE_HASH !== 'string') return null;
  return path.join(home, 'cache', `core-${XAGENT_CORE_HASH}-${process.version}-${process.arch}.v8`);
}

/** Caches kept for other versions of the core or of Node (another install, a downgrade). */
const KEPT_CACHES = 4;

/** Temp file, then rename: another run reads the whole cache or none of it. Then the oldest others go. */
function writeAtomically(file: string, data: Buffer): void {
  try {
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    writeFileAtomicSync(file, data);
    pruneOldCaches(path.dirname(file));
  } catch {
    // no cache this time (a read-only home): the next start compiles again
  }
}

function pruneOldCaches(dir: string): void {
  const caches = readdirSync(dir)
    .filter((name) => /^core-.*\.v8$/.test(name))
    .map((name) => ({ file: path.join(dir, name), mtime: statSync(path.join(dir, name)).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime);
  for (const old of caches.slice(KEPT_CACHES)) rmSync(old.file, { force: true });
}
