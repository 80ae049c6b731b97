import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../support/engine-harness.js';
import { startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.js';
import { twoRounds } from './batch-fixtures.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const LIB = path.resolve(here, '../../dist/lib/index.js');

let fake: FakeAnthropic | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

interface Summary {
  results: number;
  reasons: Record<string, number>;
  escaped: string[];
  escapedCount: number;
}

/** Runs many-tasks-child.mjs in bash under `ulimit -n 1024` (the common default) and reads its summary. */
function underUlimit(mode: 'query' | 'batch', count: number, env: Record<string, string>): Promise<{ summary: Summary; stderr: string }> {
  const child = spawn('bash', ['-c', 'ulimit -n 1024 && exec node "$CHILD"'], {
    env: { ...process.env, ...env, MODE: mode, COUNT: String(count), XAGENT_LIB: LIB, CHILD: path.join(here, 'many-tasks-child.mjs') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) =>
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`child exited ${code}: ${stderr.slice(-2000)}`));
      else resolve({ summary: JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as Summary, stderr });
    }),
  );
}

describe('a thousand library tasks at once under ulimit -n 1024', () => {
  for (const mode of ['query', 'batch'] as const) {
    it(`${mode === 'query' ? 'query()' : 'runBatch'}: every task ends with a result, and no exception escapes`, {
      timeout: 240_000,
    }, async () => {
      // Answers 200 ms late, so all thousand tasks are in flight at once.
      fake = await startFakeAnthropic([], { respond: twoRounds(200) });
      const dir = tempDir();
      const { summary } = await underUlimit(mode, 1000, {
        ANTHROPIC_API_KEY: 'test-key',
        ANTHROPIC_BASE_URL: fake.url,
        XAGENT_HOME: path.join(dir, 'home'),
      });
      expect(summary.escaped).toEqual([]);
      expect(summary.results).toBe(1000);
      expect(summary.reasons).toEqual({ final_answer: 1000 });
      expect(fake.rejected).toEqual([]);
    });
  }
});
