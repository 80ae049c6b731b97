import { chmodSync, lstatSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Message } from '../../machines/types.js';
import type { FakeAnthropic, FakeResponse } from '../support/fake-anthropic.js';
import { runCli } from '../support/run-cli.js';

/** Every regular file under `root` (relative path -> bytes and permission bits); folders are not compared. */
export type Snapshot = Record<string, { base64: string; mode: string }>;

export function snapshot(root: string): Snapshot {
  const out: Snapshot = {};
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else
        out[path.relative(root, full)] = {
          base64: readFileSync(full).toString('base64'),
          mode: (lstatSync(full).mode & 0o7777).toString(8),
        };
    }
  };
  walk(root);
  return out;
}

/** The bytes 0..255 twice: a binary file no text tool could write. */
export const BINARY = Buffer.from([...Array(256).keys(), ...Array(256).keys()]);

/** The workspace before the first task: CRLF text, a binary file, an executable script. */
export function seedWorkspace(workspace: string): void {
  writeFileSync(path.join(workspace, 'notes.txt'), 'alpha\r\nbeta\r\n');
  writeFileSync(path.join(workspace, 'logo.bin'), BINARY);
  writeFileSync(path.join(workspace, 'run.sh'), '#!/bin/sh\necho one\n');
  chmodSync(path.join(workspace, 'run.sh'), 0o750);
  writeFileSync(path.join(workspace, 'keep.txt'), 'never touched\n');
}

const use = (name: string, input: Record<string, unknown>): FakeResponse['content'] => [{ type: 'tool_use', name, input }];

export const PROMPTS = ['first: edit the notes', 'second: rework the files', 'third: clean up'] as const;

/** What the model does in the three tasks: edit (CRLF kept), overwrite a binary, edit a script, create, then delete with bash. */
export const THREE_TASKS: FakeResponse[] = [
  { content: use('edit_file', { path: 'notes.txt', old_string: 'alpha', new_string: 'ALPHA' }) },
  { text: 'Edited the notes.' },
  { content: use('write_file', { path: 'logo.bin', content: 'now a text file\n' }) },
  { content: use('edit_file', { path: 'run.sh', old_string: 'echo one', new_string: 'echo two' }) },
  { content: use('write_file', { path: 'docs/new.md', content: '# new\r\n' }) },
  { text: 'Reworked.' },
  { content: use('edit_file', { path: 'notes.txt', old_string: 'beta', new_string: 'BETA' }) },
  { content: use('bash', { command: 'rm logo.bin run.sh' }) },
  { content: use('write_file', { path: 'extra.txt', content: 'extra\n' }) },
  { text: 'Cleaned up.' },
];

export interface Ran {
  id: string;
  /** The workspace before each task, and after the last. */
  before: Snapshot[];
  /** Index into fake.requests of each task's first request. */
  firstRequest: number[];
}

export const PERMISSIVE = ['--permission-mode', 'bypassPermissions', '--output-format', 'json'];

/** Runs the three tasks in one session against the fake, and returns what each saw. */
export async function runThreeTasks(fake: FakeAnthropic, env: Record<string, string>, workspace: string): Promise<Ran> {
  seedWorkspace(workspace);
  const before: Snapshot[] = [];
  const firstRequest: number[] = [];
  let id = '';
  for (const prompt of PROMPTS) {
    before.push(snapshot(workspace));
    firstRequest.push(fake.requests.length);
    const run = await runCli(['-p', prompt, ...PERMISSIVE, ...(id ? ['--resume', id] : [])], { env, cwd: workspace });
    if (run.code !== 0) throw new Error(`task "${prompt}" failed (${run.code}): ${run.stderr}`);
    id = (JSON.parse(run.stdout) as { session_id: string }).session_id;
  }
  before.push(snapshot(workspace));
  return { id, before, firstRequest };
}

/** A request's messages without cache breakpoints (they sit on the newest message, wherever that is). */
export function messagesOf(fake: FakeAnthropic, index: number): Message[] {
  const body = fake.requests[index]?.body as { messages: Message[] } | undefined;
  if (!body) throw new Error(`no request ${index}: the fake got ${fake.requests.length}`);
  return JSON.parse(JSON.stringify(body.messages, (key, value) => (key === 'cache_control' ? undefined : value))) as Message[];
}

export function makeDir(dir: string): string {
  mkdirSync(dir, { recursive: true });
  return dir;
}
