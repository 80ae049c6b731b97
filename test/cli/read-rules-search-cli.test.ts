import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { FakeResponse } from '../support/fake-anthropic.js';
import { useFakeApi } from '../support/fake-api-env.js';
import { runCli } from '../support/run-cli.js';
import { assertBuilt } from '../sessions/cli.js';

/**
 * Issue 38: Read rules apply to every file a read tool opens or lists, not only to its `path`.
 * `--deny 'Read(.env)'` with `grep TOKEN .` used to return the secret in .env.
 */

beforeAll(assertBuilt);
const api = useFakeApi();

const ENV_SECRET = 'TOKEN=sk-live-env-0123';
const KEY_SECRET = 'TOKEN=sk-live-key-4567';
const use = (name: string, input: Record<string, unknown>): FakeResponse => ({ content: [{ type: 'tool_use', name, input }] });

function seed(): void {
  writeFileSync(path.join(api.workspace, '.env'), `${ENV_SECRET}\n`);
  mkdirSync(path.join(api.workspace, 'secrets/deep'), { recursive: true });
  writeFileSync(path.join(api.workspace, 'secrets/deep/key.txt'), `${KEY_SECRET}\n`);
  writeFileSync(path.join(api.workspace, 'config.ts'), 'export const TOKEN = process.env.TOKEN;\n');
}

/** The tool results the model got, in order (from the requests the fake saw). */
function toolResults(): Array<{ content: string; is_error?: boolean }> {
  const results: Array<{ content: string; is_error?: boolean }> = [];
  for (const request of api.fake.requests) {
    const messages = (request.body as { messages: Array<{ role: string; content: unknown }> }).messages;
    const last = messages.at(-1);
    if (!last || !Array.isArray(last.content)) continue;
    for (const block of last.content as Array<{ type: string; content?: unknown; is_error?: boolean }>) {
      if (block.type !== 'tool_result') continue;
      const content = typeof block.content === 'string' ? block.content : JSON.stringify(block.content);
      results.push({ content, ...(block.is_error ? { is_error: true } : {}) });
    }
  }
  return results;
}

async function run(flags: string[], calls: FakeResponse[]) {
  seed();
  const env = await api.start([...calls, { text: 'done' }]);
  const result = await runCli(['-p', 'find the token', '--output-format', 'json', ...flags], { env, cwd: api.workspace });
  expect(result.code, result.stderr).toBe(0);
  return toolResults();
}

describe('issue 38: grep and glob withhold files that Read rules cover', () => {
  it("--deny 'Read(.env)': grep TOKEN . shows config.ts (the control), withholds .env and says so", async () => {
    const [grep] = await run(['--deny', 'Read(.env)'], [use('grep', { pattern: 'TOKEN', path: '.' })]);
    expect(grep?.content).toContain('config.ts:1:export const TOKEN');
    expect(grep?.content).not.toContain('sk-live-env');
    expect(grep?.content).toContain('secrets/deep/key.txt:1:TOKEN=sk-live-key');
    expect(grep?.content).toMatch(/\[Not shown: matches in \.env, which deny rule "Read\(\.env\)"/);
  });

  it("--deny 'Read(secrets/**)': grep and glob withhold everything below secrets/", async () => {
    const [grep, glob] = await run(
      ['--deny', 'Read(secrets/**)'],
      [use('grep', { pattern: 'sk-live', path: '.' }), use('glob', { pattern: '**/*.txt' })],
    );
    expect(grep?.content).not.toContain('sk-live-key');
    expect(grep?.content).toContain('.env:1:TOKEN=sk-live-env');
    expect(grep?.content).toContain('[Not shown: matches in secrets/deep/key.txt');
    expect(grep?.is_error).toBeUndefined();
    expect(glob?.is_error).toBe(true);
    expect(glob?.content).toContain('No files match "**/*.txt" in the workspace root that may be shown');
    expect(glob?.content).toContain('[Not shown: secrets/deep/key.txt');
  });

  it('an ask rule (project settings) withholds the file too and points at read_file, which asks', async () => {
    mkdirSync(path.join(api.workspace, '.xagent'));
    writeFileSync(path.join(api.workspace, '.xagent/settings.json'), JSON.stringify({ permissions: { ask: ['Read(.env)'] } }));
    const [grep] = await run([], [use('grep', { pattern: 'TOKEN' })]);
    expect(grep?.content).not.toContain('sk-live-env');
    expect(grep?.content).toContain('config.ts:1:');
    expect(grep?.content).toMatch(
      /\[Not shown: matches in \.env, which need permission to read \(ask rule "Read\(\.env\)".*read_file asks for it\.\]/,
    );
  });

  it('the control: without a rule, grep shows every matching file, .env included', async () => {
    const [grep] = await run([], [use('grep', { pattern: 'TOKEN' })]);
    expect(grep?.content).toContain('.env:1:TOKEN=sk-live-env');
    expect(grep?.content).not.toContain('Not shown');
  });
});
