import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FakeResponse } from '../support/fake-anthropic.js';
import { useFakeApi } from '../support/fake-api-env.js';
import { jsonLines, runCli } from '../support/run-cli.js';

/**
 * Claude Code's flags and its `-p --output-format json` result, through the built CLI and the
 * fake API: a script written against Claude Code runs unchanged.
 */
const api = useFakeApi();
const MODEL = ['--model', 'claude-sonnet-4-6'];

/** A script as people write it for `claude -p --output-format json`: it reads Claude Code's fields only. */
const CLAUDE_SCRIPT = String.raw`
const r = JSON.parse(require('fs').readFileSync(0, 'utf8'));
if (r.type !== 'result' || r.subtype !== 'success' || r.is_error) { console.error('failed: ' + r.subtype); process.exit(1); }
if (typeof r.total_cost_usd !== 'number' || !(r.num_turns >= 1) || !r.session_id) process.exit(1);
console.log(r.result + ' | turns=' + r.num_turns + ' | cost=' + r.total_cost_usd.toFixed(6) + ' | denials=' + r.permission_denials.length);
`;

const toolUse = (id: string, name: string, input: Record<string, unknown>): FakeResponse => ({
  content: [{ type: 'tool_use', id, name, input }],
});

describe("Claude Code's -p --output-format json", () => {
  it('a script reading .result, .is_error, .num_turns, .total_cost_usd and .session_id runs unchanged', async () => {
    const env = await api.start([{ text: 'all good' }]);
    const run = await runCli(['-p', 'check', '--cwd', api.workspace, '--output-format', 'json', ...MODEL], { env });
    expect(run.code).toBe(0);
    const out = execFileSync(process.execPath, ['-e', CLAUDE_SCRIPT], { input: run.stdout, encoding: 'utf8' });
    expect(out.trim()).toMatch(/^all good \| turns=1 \| cost=0\.\d{6} \| denials=0$/);
    // xagent's own fields stay.
    expect(jsonLines(run.stdout)[0]).toMatchObject({ reason: 'final_answer', text: 'all good', turns: 1 });
  });

  it('lists refused calls in permission_denials and says error_during_execution on a stop; stream-json ends with the same result', async () => {
    const env = await api.start([toolUse('toolu_1', 'bash', { command: 'git push' }), { text: 'never' }]);
    const run = await runCli(
      [
        '-p',
        'push',
        '--cwd',
        api.workspace,
        '--output-format',
        'stream-json',
        '--disallowedTools',
        'Bash(git push:*),WebFetch',
        '--stop-on-denial',
        ...MODEL,
      ],
      { env },
    );
    expect(run.code).toBe(6);
    expect(jsonLines(run.stdout).at(-1)).toMatchObject({
      type: 'result',
      subtype: 'error_during_execution',
      is_error: true,
      permission_denials: [{ tool_name: 'Bash', tool_use_id: 'toolu_1', tool_input: { command: 'git push' } }],
    });
  });
});

describe("Claude Code's flags", () => {
  it('--allowedTools takes rules separated by commas or spaces, parentheses kept whole', async () => {
    const env = await api.start([toolUse('toolu_1', 'bash', { command: 'npm run test -- --watch=false' }), { text: 'ran' }]);
    writeFileSync(path.join(api.workspace, 'package.json'), JSON.stringify({ scripts: { test: 'echo tested' } }));
    const run = await runCli(
      ['-p', 'test', '--cwd', api.workspace, '--output-format', 'json', '--allowedTools', 'Read Bash(npm run test:*)'],
      {
        env,
      },
    );
    expect(run.code).toBe(0);
    const result = (api.fake.requests[1]!.body as { messages: Array<{ content: Array<{ is_error?: boolean }> }> }).messages.at(-1)!;
    expect(result.content[0]!.is_error).toBeFalsy();
  });

  it('--system-prompt replaces the system prompt and --append-system-prompt adds to it', async () => {
    const env = await api.start([{ text: 'a' }, { text: 'b' }]);
    writeFileSync(path.join(api.workspace, 'AGENTS.md'), 'Project rule.');
    await runCli(['-p', 'x', '--cwd', api.workspace, '--system-prompt', 'You are terse.', '--append-system-prompt', 'Say hi.'], { env });
    await runCli(['-p', 'y', '--cwd', api.workspace, '--append-system-prompt', 'Always cite files.'], { env });
    const system = (i: number) => (api.fake.requests[i]!.body as { system: Array<{ text: string }> }).system.map((b) => b.text).join('');
    expect(system(0)).toBe('You are terse.\n\nSay hi.');
    expect(system(1)).toContain('Project rule.');
    expect(system(1).endsWith('Always cite files.')).toBe(true);
  });

  it('-c continues the latest session and -r resumes one by id', async () => {
    const env = await api.start([{ text: 'first' }, { text: 'second' }, { text: 'third' }]);
    const first = jsonLines((await runCli(['-p', 'one', '--cwd', api.workspace, '--output-format', 'json'], { env })).stdout)[0]!;
    const second = jsonLines((await runCli(['-c', '-p', 'two', '--cwd', api.workspace, '--output-format', 'json'], { env })).stdout)[0]!;
    const third = jsonLines(
      (await runCli(['-r', String(first.session_id), '-p', 'three', '--cwd', api.workspace, '--output-format', 'json'], { env })).stdout,
    )[0]!;
    expect(second.session_id).toBe(first.session_id);
    expect(third.session_id).toBe(first.session_id);
    const messages = (api.fake.requests[2]!.body as { messages: unknown[] }).messages;
    expect(messages.length).toBe(5);
  });
});
