import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import type { FakeAnthropic, FakeResponse } from '../support/fake-anthropic.js';
import { toolResultsIn } from './lib-support.js';

/** What the fake answers: call the example's custom tool on README.md, then answer. */
export const EXAMPLE_SCRIPT: FakeResponse[] = [
  { content: [{ type: 'tool_use', id: 'toolu_wc', name: 'word_count', input: { path: 'README.md' } }] },
  { text: 'README.md has 5 words.' },
];

/**
 * Runs examples/custom-tool/index.mjs (from `file`, importing the package by name) in `workspace`
 * against the fake, checks that the custom tool ran and its result reached the model, and that the
 * inspector answered 200 while the run was open; then presses Enter and expects exit 0.
 */
export async function runExample(options: { file: string; workspace: string; env: Record<string, string>; fake: () => FakeAnthropic }) {
  writeFileSync(path.join(options.workspace, 'README.md'), 'one two three four five\n');
  const child = spawn(process.execPath, [options.file, 'How many words are in README.md?'], {
    cwd: options.workspace,
    env: { PATH: process.env.PATH ?? '', HOME: options.workspace, NO_COLOR: '1', ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  // After the result the example keeps the run (and its inspector) open until Enter.
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /Inspector still serving at (\S+);/.exec(stderr);
      if (match) resolve(match[1]!);
    });
    void exited.then(() => reject(new Error(`the example exited early: ${stderr}`)));
  });
  const page = await fetch(url);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain('<html');
  child.stdin.end('\n');
  const code = await exited;
  expect(code, stderr).toBe(0);
  expect(stdout).toBe('README.md has 5 words.');
  expect(stderr).toContain('< README.md: 5 words');
  expect(stderr).toContain('[final_answer] 2 turns, 1 tool calls');
  expect(toolResultsIn(options.fake().requests[1])).toEqual([
    { type: 'tool_result', tool_use_id: 'toolu_wc', content: 'README.md: 5 words', is_error: false },
  ]);
  return { url, stdout, stderr };
}
