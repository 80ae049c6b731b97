import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(relative);
    return /\.(ts|tsx)$/.test(entry.name) ? [relative] : [];
  });
}

describe('the Restate boundary', () => {
  it('keeps every import of the Restate SDK in src/restate/', () => {
    const importers = [...sources('src'), ...sources('machines')].filter((file) =>
      /from ['"]@restatedev\//.test(readFileSync(path.join(root, file), 'utf8')),
    );
    expect(importers.filter((file) => !file.startsWith(`src${path.sep}restate${path.sep}`))).toEqual([]);
    expect(importers.length).toBeGreaterThan(0);
  });

  it('loads the SDK in src/restate/ only from the worker side, never from what the task commands and the library use', () => {
    const clientSide = [
      'admin-client.ts',
      'commands.ts',
      'errors.ts',
      'http-json.ts',
      'ingress-client.ts',
      'task-spec.ts',
      'task-status.ts',
      'urls.ts',
    ];
    const withSdk = clientSide.filter((file) => /from ['"]@restatedev\//.test(readFileSync(path.join(root, 'src/restate', file), 'utf8')));
    expect(withSdk).toEqual([]);
  });
});
