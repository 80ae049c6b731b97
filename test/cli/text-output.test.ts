import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { QueryResult } from '../../src/engine/events.js';
import { textRenderer } from '../../src/terminal/text-renderer.js';

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
  type: 'result',
  reason: 'final_answer',
  is_error: false,
  text: '',
  session_id: 's',
  turns: 1,
  tool_calls: 0,
  usage: { input_tokens: 0, output_tokens: 0 },
  total_cost_usd: null,
  duration_ms: 1,
  trace_path: null,
  ...fields,
});

describe('text output', () => {
  it('puts only the final answer on stdout; narration and tool activity go to stderr', () => {
    const { streams, text } = capture();
    const r = textRenderer(streams, limits);
    r.onEvent({ type: 'text_delta', text: 'Let me look at the file.' });
    r.onEvent({ type: 'turn_end', reason: 'tool_use' });
    r.onEvent({ type: 'tool_start', call: { id: 't', name: 'read_file', input: { path: 'a.txt' } } });
    r.onEvent({
      type: 'tool_result',
      call: { id: 't', name: 'read_file', input: { path: 'a.txt' } },
      result: { content: '     1\tline 1\n     2\tline 2', is_error: false },
    });
    r.onEvent({ type: 'text_delta', text: 'The answer' });
    r.onEvent({ type: 'turn_end', reason: 'end_turn' });
    r.finish(result({ text: 'The answer' }));
    expect(text.out).toBe('The answer\n');
    expect(text.err).toContain('Let me look at the file.\n');
    expect(text.err).toContain('⏺ read_file a.txt\n  ⎿ 2 lines');
  });

  it('keeps text cut off by an interrupt off stdout', () => {
    const { streams, text } = capture();
    const r = textRenderer(streams, limits);
    r.onEvent({ type: 'text_delta', text: 'Half an ans' });
    r.finish(result({ reason: 'user_abort', is_error: true }));
    expect(text.out).toBe('');
    expect(text.err).toContain('Half an ans');
  });

  it('shows terminal escapes in tool output and stop messages instead of obeying them', () => {
    const { streams, text } = capture();
    const r = textRenderer(streams, limits);
    r.onEvent({ type: 'tool_start', call: { id: 't', name: 'bash', input: { command: 'echo \u001b[2Jhi' } } });
    r.finish(
      result({
        reason: 'permission_denied',
        is_error: true,
        call: { id: 't', name: 'bash', input: { command: 'rm \u001b]0;owned\u0007' } },
        decision: { behavior: 'deny', decidedBy: 'deny rule (\u001b]0;owned\u0007)' },
      }),
    );
    expect(text.err).not.toContain('\u001b');
    expect(text.err).toContain('\\x1b[2Jhi');
    expect(text.err).toContain('✗ bash(rm \\x1b]0;owned\\x07) — refused by deny rule (\\x1b]0;owned\\x07)');
  });

  it('says in one line that the person declined a call', () => {
    const { streams, text } = capture();
    textRenderer(streams, limits).finish(
      result({
        reason: 'permission_denied',
        is_error: true,
        call: { id: 't', name: 'bash', input: { command: 'rm -rf build' } },
        decision: { behavior: 'deny', decidedBy: 'user: no (asked because default: bash asks)', message: 'The user did not allow bash.' },
      }),
    );
    expect(text.err).toBe('✗ bash(rm -rf build) — declined by you\n');
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
