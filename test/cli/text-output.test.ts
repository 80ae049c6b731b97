import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { QueryResult } from '../../src/engine/events.js';
import { textRenderer } from '../../src/cli/output/text.js';

function capture() {
  const out = new PassThrough();
  const err = new PassThrough();
  const text = { out: '', err: '' };
  out.on('data', (d: Buffer) => (text.out += d.toString()));
  err.on('data', (d: Buffer) => (text.err += d.toString()));
  return { streams: { stdout: out, stderr: err }, text };
}

const limits = { maxTurns: 8, maxToolCalls: 12, timeoutMs: 120_000 };
const result = (fields: Partial<QueryResult>): QueryResult => ({
  type: 'result', reason: 'final_answer', is_error: false, text: '', session_id: 's', turns: 1, tool_calls: 0,
  usage: { input_tokens: 0, output_tokens: 0 }, total_cost_usd: null, duration_ms: 1, trace_path: null, ...fields,
});

describe('text output', () => {
  it('streams the answer to stdout and tool activity to stderr', () => {
    const { streams, text } = capture();
    const r = textRenderer(streams, limits);
    r.onEvent({ type: 'tool_start', call: { id: 't', name: 'read_file', input: { path: 'a.txt' } } });
    r.onEvent({ type: 'tool_result', call: { id: 't', name: 'read_file', input: {} }, result: { content: 'line 1\nline 2', is_error: false } });
    r.onEvent({ type: 'text_delta', text: 'The answer' });
    r.finish(result({ text: 'The answer' }));
    expect(text.out).toBe('The answer\n');
    expect(text.err).toContain('read_file(a.txt)');
    expect(text.err).toContain('line 1 (+1 lines)');
  });

  it('shows terminal escapes in tool output and stop messages instead of obeying them', () => {
    const { streams, text } = capture();
    const r = textRenderer(streams, limits);
    r.onEvent({ type: 'tool_start', call: { id: 't', name: 'bash', input: { command: 'echo \u001b[2Jhi' } } });
    r.finish(result({ reason: 'permission_denied', is_error: true, call: { id: 't', name: 'bash', input: {} }, decision: { behavior: 'deny', decidedBy: 'user: no (\u001b]0;owned\u0007)' } }));
    expect(text.err).not.toContain('\u001b');
    expect(text.err).toContain('\\x1b[2Jhi');
    expect(text.err).toContain('Stopped: bash was refused (user: no (\\x1b]0;owned\\x07))');
  });

  it.each([
    ['max_turns', 'more than 8 model rounds'],
    ['max_tool_calls', 'tool budget of 12 calls'],
    ['timeout', 'ran out of time after 2m'],
    ['model_error', 'the model request failed: boom'],
    ['user_abort', 'Interrupted'],
  ] as const)('tells the user why a task stopped with %s', (reason, words) => {
    const { streams, text } = capture();
    textRenderer(streams, limits).finish(result({ reason, is_error: true, error: { code: 'MODEL_ERROR', message: 'boom' } }));
    expect(text.err).toContain(words);
  });
});
