import { execFileSync } from 'node:child_process';
import { readFileSync, realpathSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { FakeResponse } from '../support/fake-anthropic.js';
import { useFakeApi } from '../support/fake-api-env.js';
import { writeJson } from '../support/engine-harness.js';
import { CLI, jsonLines, runCli } from '../support/run-cli.js';
import path from 'node:path';

const api = useFakeApi();
const withFake = (script: FakeResponse[]) => api.start(script);

describe('xagent -p against the Anthropic API', () => {
  it('streams the answer to stdout and exits 0', async () => {
    const env = await withFake([{ text: 'Hello from the fake API.' }]);
    const run = await runCli(['-p', 'say hello', '--cwd', api.workspace], { env });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('Hello from the fake API.\n');
    expect(api.fake.requests).toHaveLength(1);
    const body = api.fake.requests[0]!.body as { model: string; system: Array<{ text: string }>; tools: Array<{ name: string }> };
    expect(body.model).toBe('claude-sonnet-5-5');
    expect(body.system[0]!.text).toContain(api.workspace);
    expect(body.tools.map((t) => t.name)).toContain('read_file');
  });

  it("tells the model the workspace's git branch and status, the same in every round of the task", async () => {
    execFileSync('git', ['init', '-q', '-b', 'trunk'], { cwd: api.workspace });
    writeJson(path.join(api.workspace, 'notes.txt'), 'hi');
    const env = await withFake([
      { content: [{ type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'notes.txt' } }] },
      { text: 'done' },
    ]);
    const run = await runCli(['-p', 'read notes', '--cwd', api.workspace], { env });
    expect(run.code).toBe(0);
    const systems = api.fake.requests.map((r) => (r.body as { system: Array<{ text: string }> }).system[0]!.text);
    expect(systems).toHaveLength(2);
    expect(systems[0]).toContain(`Git repository at ${realpathSync(api.workspace)}, branch trunk`);
    expect(systems[0]).toContain('git status --short at the start of the task:\n?? notes.txt');
    expect(systems[1]).toBe(systems[0]);
  });

  it('honours --model and ANTHROPIC_MODEL', async () => {
    const env = await withFake([{ text: 'a' }, { text: 'b' }]);
    await runCli(['-p', 'x', '--cwd', api.workspace, '--model', 'claude-opus-5-5'], { env });
    await runCli(['-p', 'x', '--cwd', api.workspace], { env: { ...env, ANTHROPIC_MODEL: 'claude-haiku-5-5' } });
    expect(api.fake.requests.map((r) => (r.body as { model: string }).model)).toEqual(['claude-opus-5-5', 'claude-haiku-5-5']);
  });

  it('reads the prompt from stdin when no argument is given', async () => {
    const env = await withFake([{ text: 'ok' }]);
    const run = await runCli(['-p', '--cwd', api.workspace], { env, input: 'the task from stdin\n' });
    expect(run.code).toBe(0);
    const body = api.fake.requests[0]!.body as { messages: Array<{ content: unknown }> };
    expect(JSON.stringify(body.messages[0])).toContain('the task from stdin');
  });

  it('prints exactly one JSON object with --output-format json', async () => {
    const env = await withFake([{ text: 'The answer.', usage: { input_tokens: 11, output_tokens: 7 } }]);
    const run = await runCli(['-p', 'q', '--cwd', api.workspace, '--output-format', 'json'], { env });
    expect(run.code).toBe(0);
    const lines = jsonLines(run.stdout);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      type: 'result',
      reason: 'final_answer',
      is_error: false,
      text: 'The answer.',
      turns: 1,
      tool_calls: 0,
      usage: { input_tokens: 11, output_tokens: 7 },
    });
    expect(Object.keys(lines[0]!)).toEqual(expect.arrayContaining(['session_id', 'duration_ms', 'trace_path']));
  });

  it('emits stream-json events in order, the result last', async () => {
    const env = await withFake([
      { content: [{ type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'notes.txt' } }] },
      { text: 'It says hi.' },
    ]);
    writeJson(path.join(api.workspace, 'notes.txt'), 'hi');
    const run = await runCli(['-p', 'read notes', '--cwd', api.workspace, '--output-format', 'stream-json'], { env });
    expect(run.code).toBe(0);
    const events = jsonLines(run.stdout);
    const types = events.map((e) => (e.type === 'state' ? `state:${String(e.name)}` : String(e.type)));
    expect(types[0]).toBe('state:build_context.starting');
    expect(types.at(-1)).toBe('result');
    const order = [
      'state:call_model.requesting',
      'turn_end',
      'state:validate_tool',
      'state:execute_tool.running',
      'tool_start',
      'tool_result',
      'state:append_tool_result.collected',
      'text_delta',
      'state:done',
      'result',
    ];
    let at = -1;
    for (const type of order) {
      const next = types.indexOf(type, at + 1);
      expect(next, `${type} after position ${at} in ${types.join(', ')}`).toBeGreaterThan(at);
      at = next;
    }
    // Every event but the streamed deltas is a line of the evidence log, in its order (the turn's
    // whole text is a line too, but no event: it streamed as deltas).
    const logged = events.filter((e) => e.type !== 'text_delta' && e.type !== 'thinking_delta' && e.type !== 'result');
    const seqs = logged.map((e) => e.seq as number);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(seqs).size).toBe(seqs.length);
    const trace = jsonLines(readFileSync(String(events.at(-1)!.trace_path), 'utf8'));
    expect(trace.map((l) => l.seq)).toEqual(trace.map((_, i) => i));
    expect(trace.filter((l) => l.event === 'text').map((l) => l.text)).toEqual([expect.any(String)]);
    const start = events.find((e) => e.type === 'tool_start') as { call: { id: string; name: string; input: unknown } };
    expect(start.call).toEqual({ id: 'toolu_1', name: 'read_file', input: { path: 'notes.txt' } });
  });

  it('retries an overloaded API, shows the retry, then succeeds', async () => {
    const env = await withFake([{ error: { type: 'overloaded_error', message: 'Overloaded' } }, { text: 'made it' }]);
    const run = await runCli(['-p', 'q', '--cwd', api.workspace, '--output-format', 'stream-json'], { env });
    expect(run.code).toBe(0);
    const events = jsonLines(run.stdout);
    expect(events.find((e) => e.type === 'retry')).toMatchObject({ attempt: 1, status: 529 });
    expect(events.at(-1)).toMatchObject({ reason: 'final_answer', text: 'made it' });
    expect(api.fake.requests).toHaveLength(2);
  });

  it('stops at once on 401 with model_error (exit 8) and a message about the key', async () => {
    const env = await withFake([{ error: { type: 'authentication_error', message: 'invalid x-api-key' } }]);
    const run = await runCli(['-p', 'q', '--cwd', api.workspace], { env });
    expect(run.code).toBe(8);
    expect(run.stderr).toContain('ANTHROPIC_API_KEY');
    expect(api.fake.requests).toHaveLength(1);
  });

  it('reports a 400 with the API message', async () => {
    // (A prompt that is too long is compacted and retried first: test/cli/compaction-cli.test.ts.)
    const env = await withFake([
      { error: { type: 'invalid_request_error', message: 'max_tokens: 100000 > 64000, which is the maximum allowed' } },
    ]);
    const run = await runCli(['-p', 'q', '--cwd', api.workspace, '--output-format', 'json'], { env });
    expect(run.code).toBe(8);
    expect(JSON.stringify(jsonLines(run.stdout)[0])).toContain('64000, which is the maximum allowed');
  });
});

describe('a reader that goes away', () => {
  it('stops the task cleanly when stdout is closed mid-answer (xagent -p | head), with no crash', async () => {
    // The answer comes in three deltas; 400 ms apart, the reader is gone long before the last one even on a loaded machine.
    const env = await withFake([{ text: 'word '.repeat(300), eventDelayMs: 400 }]);
    let closed = false;
    // stream-json writes as the answer streams (text mode holds a turn's text until the turn ends).
    const run = await runCli(['-p', 'talk', '--cwd', api.workspace, '--output-format', 'stream-json'], {
      env,
      onOutput: (child, output) => {
        // Once the answer streams: stream-json's first lines (states) come before the request.
        if (!closed && output.stdout.includes('text_delta')) {
          closed = true;
          child.stdout?.destroy();
        }
      },
    });
    expect(closed).toBe(true);
    expect(run.stderr).not.toContain('EPIPE');
    expect(run.code).toBe(130);
    expect(api.fake.disconnected).toEqual([0]);
  });
});

describe('usage errors exit 2 before any request', () => {
  it('says what to do when ANTHROPIC_API_KEY is missing', async () => {
    const run = await runCli(['-p', 'hello'], { env: { XAGENT_HOME: api.home } });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('ANTHROPIC_API_KEY is not set');
    expect(run.stdout).toBe('');
  });

  it.each([
    [['--max-turns', '0'], '--max-turns'],
    [['--max-tool-calls', 'lots'], '--max-tool-calls'],
    [['--timeout', 'soon'], '--timeout'],
    [['--output-format', 'xml'], '--output-format'],
    [['--cwd', '/nonexistent/dir'], '--cwd'],
  ])('rejects %j', async (flags, name) => {
    const env = await withFake([]);
    const run = await runCli(['-p', 'hello', ...flags], { env });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(name);
    expect(api.fake.requests).toHaveLength(0);
  });
});

describe('the installed command', () => {
  it('is an executable file, so `npx xagent` runs it from a fresh clone', () => {
    expect(statSync(CLI).mode & 0o111).not.toBe(0);
    expect(readFileSync(CLI, 'utf8').startsWith('#!/usr/bin/env node')).toBe(true);
  });
});
