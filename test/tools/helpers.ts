import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import type { ToolResult } from '../../machines/types.js';
import { builtinTools } from '../../src/tools/builtin/index.js';
import { ToolRegistry } from '../../src/tools/registry.js';
import type { Tool } from '../../src/tools/types.js';

const created: string[] = [];

afterEach(async () => {
  for (const dir of created.splice(0)) await rm(dir, { recursive: true, force: true });
});

/** A fresh real temp folder, removed after the test. */
export async function tempDir(prefix = 'xagent-tools-'): Promise<string> {
  const dir = await realpath(await mkdtemp(path.join(os.tmpdir(), prefix)));
  created.push(dir);
  return dir;
}

/** Writes files given as `{ 'a/b.txt': 'text' }` under root, creating folders. */
export async function writeTree(root: string, files: Record<string, string | Buffer>): Promise<void> {
  for (const [relative, content] of Object.entries(files)) {
    const file = path.join(root, relative);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, content);
  }
}

let nextId = 0;

/**
 * Validates then executes one call through a registry, as the engine does.
 * Fails the test if validation rejects the input.
 */
export async function run(
  name: string,
  input: unknown,
  options: { workspace: string; signal?: AbortSignal; tools?: Tool[] },
): Promise<ToolResult> {
  const registry = new ToolRegistry(options.tools ?? builtinTools());
  const call = { id: `call_${++nextId}`, name, input };
  const validation = registry.validate(call);
  if (!validation.ok) throw new Error(`validation failed: ${validation.error.message}`);
  return registry.execute(call, { signal: options.signal ?? new AbortController().signal, workspace: options.workspace });
}

/** Creates a named pipe (Node has no mkfifo). */
export function mkfifo(file: string): void {
  execFileSync('mkfifo', [file]);
}
