import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Message } from '../../machines/types.js';
import type { FakeResponse } from '../support/fake-anthropic.js';
import { useFakeApi } from '../support/fake-api-env.js';
import { loadTranscript } from '../../src/sessions/transcript.js';
import { unpairedToolUses } from '../support/engine-harness.js';
import { jsonLines, runCli, type CliOptions } from '../support/run-cli.js';

const api = useFakeApi();

async function run(script: FakeResponse[], flags: string[], options: CliOptions = {}) {
  const env = { ...(await api.start(script)), ...options.env };
  const result = await runCli(['-p', 'the task', '--cwd', api.workspace, '--output-format', 'json', ...flags], { ...options, env });
  return { ...result, json: jsonLines(result.stdout)[0] as Record<string, unknown> | undefined };
}

function onlyTranscript(): Message[] {
  const [id] = readdirSync(path.join(api.home, 'sessions'));
  // Through the session reader: lines carry their record version, which is not part of the message.
  return loadTranscript(path.join(api.home, 'sessions', id!)).messages;
}

const readCall = (id: string) => ({ type: 'tool_use' as const, id, name: 'read_file', input: { path: 'missing.txt' } });

describe('each stop reason has its exit code and json result', () => {
  it('max_turns exits 3', async () => {
    const r = await run([{ content: [readCall('t1')] }, { content: [readCall('t2')] }], ['--max-turns', '1']);
    expect(r.code).toBe(3);
    expect(r.json).toMatchObject({ reason: 'max_turns', is_error: true, turns: 1 });
    expect(unpairedToolUses(onlyTranscript())).toEqual([]);
  });

  it('max_tool_calls exits 4', async () => {
    const r = await run([{ content: [readCall('t1'), readCall('t2')] }], ['--max-tool-calls', '1']);
    expect(r.code).toBe(4);
    expect(r.json).toMatchObject({ reason: 'max_tool_calls', tool_calls: 1 });
    expect(unpairedToolUses(onlyTranscript())).toEqual([]);
  });

  it('timeout exits 5', async () => {
    const r = await run([{ text: 'too late', delay_ms: 20_000 }], ['--timeout', '300ms']);
    expect(r.code).toBe(5);
    expect(r.json).toMatchObject({ reason: 'timeout' });
  });

  it('permission_denied exits 6 when a write needs a person and there is no terminal', async () => {
    const write = { type: 'tool_use' as const, id: 't1', name: 'write_file', input: { path: 'out.txt', content: 'x' } };
    // --stop-on-denial keeps the stop; without it the model is told (test/cli/print-denials.test.ts).
    const r = await run([{ content: [write, readCall('t2')] }], ['--stop-on-denial']);
    expect(r.code).toBe(6);
    expect(r.json).toMatchObject({ reason: 'permission_denied', call: { name: 'write_file' }, decision: { behavior: 'deny' } });
    expect(String((r.json!.decision as { decidedBy: string }).decidedBy)).toContain('no TTY');
    expect(existsSync(path.join(api.workspace, 'out.txt'))).toBe(false);
    expect(unpairedToolUses(onlyTranscript())).toEqual([]);
  });

  it('permission_denied names the deny rule that decided, in text mode', async () => {
    const bash = { type: 'tool_use' as const, id: 't1', name: 'bash', input: { command: 'npm test && rm -rf ~' } };
    const r = await run(
      [{ content: [bash] }],
      ['--output-format', 'text', '--allow', 'bash(npm test*)', '--deny', 'bash(rm*)', '--stop-on-denial'],
    );
    expect(r.code).toBe(6);
    expect(r.stderr).toContain('✗ bash(npm test && rm -rf ~) — refused by deny rule "bash(rm*)" from --deny');
  });

  it('tool_error exits 7 when a tool fails in a way the model cannot fix (no shell on the PATH)', async () => {
    const bash = { type: 'tool_use' as const, id: 't1', name: 'bash', input: { command: 'echo hi' } };
    const r = await run([{ content: [bash] }], ['--allow', 'bash'], { env: { PATH: '/nonexistent' } });
    expect(r.code).toBe(7);
    expect(r.json).toMatchObject({ reason: 'tool_error', call: { name: 'bash' }, error: { code: 'TOOL_FAILED' } });
    expect(unpairedToolUses(onlyTranscript())).toEqual([]);
  });

  it('a malformed settings file exits 2 naming the file, before any request', async () => {
    mkdirSync(path.join(api.workspace, '.xagent'));
    writeFileSync(path.join(api.workspace, '.xagent', 'settings.json'), '{"permissions": {"allow": "bash"}}');
    const r = await run([{ text: 'never sent' }], []);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(path.join(api.workspace, '.xagent', 'settings.json'));
    expect(api.fake.requests).toHaveLength(0);
  });

  it('model_error exits 8 after the retries are used up', async () => {
    const overloaded = { error: { type: 'overloaded_error', message: 'Overloaded' } };
    const r = await run([overloaded, overloaded, overloaded], []);
    expect(r.code).toBe(8);
    expect(r.json).toMatchObject({ reason: 'model_error', error: { code: 'MODEL_ERROR' } });
    expect(api.fake.requests).toHaveLength(3);
  });

  it('final_answer after a failed tool: an is_error result goes back to the model', async () => {
    const r = await run([{ content: [readCall('t1')] }, { text: 'The file is missing.' }], []);
    expect(r.code).toBe(0);
    const second = api.fake.requests[1]!.body as { messages: Message[] };
    expect(second.messages.at(-1)!.content[0]).toMatchObject({ type: 'tool_result', tool_use_id: 't1', is_error: true });
  });
});

describe('signals', () => {
  it.each(['SIGINT', 'SIGTERM'] as const)(
    '%s during a streamed answer stops with user_abort (exit 130) and a valid transcript',
    async (signal) => {
      let sent = false;
      const r = await run([{ text: 'word '.repeat(200), eventDelayMs: 50 }], ['--output-format', 'stream-json'], {
        onOutput: (child, output) => {
          if (!sent && output.stdout.includes('text_delta')) {
            sent = true;
            child.kill(signal);
          }
        },
      });
      expect(r.code).toBe(130);
      expect(jsonLines(r.stdout).at(-1)).toMatchObject({ type: 'result', reason: 'user_abort' });
      // The partial answer is kept, and a marker says the person interrupted it.
      expect(onlyTranscript()).toEqual([
        { role: 'user', content: [{ type: 'text', text: 'the task' }] },
        { role: 'assistant', content: [{ type: 'text', text: expect.stringMatching(/^word( word)*$/) }] },
        { role: 'user', content: [{ type: 'text', text: '[Request interrupted by user]' }] },
      ]);
      expect(api.fake.disconnected).toEqual([0]);
    },
  );
});
