import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../support/engine-harness.js';
import { startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.js';
import { runCli } from '../support/run-cli.js';
import { twoRounds } from './batch-fixtures.js';

let fake: FakeAnthropic | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

describe('xagent batch, task by task', () => {
  it('gives a bad line, a repeated id and an unknown field a result of their own, and runs the rest', { timeout: 60_000 }, async () => {
    fake = await startFakeAnthropic([], { respond: twoRounds(0) });
    const dir = tempDir();
    const file = path.join(dir, 'tasks.jsonl');
    writeFileSync(
      file,
      [
        '{"prompt":"Batch task a: go"}',
        '',
        'not json',
        '{"id":"x","prompt":"Batch task x: go"}',
        '{"prompt":"Batch task b: go","maxTurn":3}',
        '{"id":"x","prompt":"Batch task x2: go"}',
      ].join('\n'),
    );
    const run = await runCli(['batch', file, '--cwd', dir], {
      env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: fake.url, XAGENT_HOME: path.join(dir, 'home') },
    });
    const lines = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const byId = (id: string | number) => lines.filter((l) => l.id === id).map((l) => ({ reason: l.reason, text: l.text }));
    expect(lines).toHaveLength(5);
    expect(byId(1)).toEqual([{ reason: 'final_answer', text: 'done a' }]);
    expect(byId(3)).toEqual([{ reason: 'usage_error', text: expect.stringMatching(/line 3: not JSON/) }]);
    expect(byId(5)).toEqual([{ reason: 'usage_error', text: expect.stringMatching(/line 5: unknown field "maxTurn"/) }]);
    expect(byId('x')).toEqual(
      expect.arrayContaining([
        { reason: 'final_answer', text: 'done x' },
        { reason: 'usage_error', text: expect.stringMatching(/line 6: id "x" is used by an earlier task/) },
      ]),
    );
    expect(run.code).toBe(1);
    expect(fake.rejected).toEqual([]);
  });
});
