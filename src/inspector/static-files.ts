import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/** A flat file name in the page folder: no slashes, no dots up front, a known extension. */
const SAFE_NAME = /^[a-z0-9][a-z0-9-]*\.(html|js|css|svg|png)$/;

/**
 * The repository's `inspector/` folder, found upwards from this module, so it works from
 * `src/inspector` (tests) and `dist/src/inspector` (the built CLI) alike.
 */
export function inspectorPageDir(from: string = path.dirname(fileURLToPath(import.meta.url))): string {
  let dir = from;
  for (;;) {
    const candidate = path.join(dir, 'inspector', 'index.html');
    if (existsSync(candidate) && existsSync(path.join(dir, 'package.json'))) return path.join(dir, 'inspector');
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`the inspector page (inspector/index.html) was not found above ${from}`);
    dir = parent;
  }
}

/** Reads one page file by its flat name, or null for anything else (no path can leave the folder). */
export function readPageFile(dir: string, name: string): { body: Buffer; type: string } | null {
  if (!SAFE_NAME.test(name)) return null;
  const file = path.join(dir, name);
  if (!existsSync(file)) return null;
  return { body: readFileSync(file), type: TYPES[path.extname(name)] ?? 'application/octet-stream' };
}
