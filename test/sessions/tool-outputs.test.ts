import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ToolCall } from '../../machines/types.js';
import { readSessionRecords } from '../../src/sessions/session-reader.js';
import { openSessionWriter } from '../../src/sessions/session-writer.js';
import { flushSessionLines } from '../../src/sessions/line-groups.js';
import { readJsonl, runTask, tempDir } from '../support/engine-harness.js';

type Line = {
  event?: string;
  agent?: string;
  call?: ToolCall;
  result?: { content?: string; stored?: string; length?: number; is_error: boolean };
};
const toolResults = (lines: Line[]) => lines.filter((l) => l.event === 'tool_result');

describe('each tool output is stored once', () => {
  it("leaves the main agent's output to the transcript, and a reader puts it back as the live run showed it", async () => {
    const marker = `output-${randomUUID()}`;
    const run = await runTask([
      { content: [{ type: 'tool_use', name: 'echo', input: { text: marker } }] },
      { content: [{ type: 'tool_use', name: 'crash', input: {} }] },
      { text: 'done' },
    ]);
    const trace = path.join(run.sessionDir, 'trace.jsonl');
    // On disk: no copy of the output in the trace, only where it is and how long.
    const written = toolResults(readJsonl<Line>(trace));
    expect(written.map((l) => l.result)).toEqual([
      { is_error: false, stored: 'transcript', length: `echo: ${marker}`.length },
      { is_error: true, stored: 'transcript', length: 'disk on fire'.length },
    ]);
    expect(readFileSync(trace, 'utf8')).not.toContain(`echo: ${marker}`);
    expect(readFileSync(path.join(run.sessionDir, 'transcript.jsonl'), 'utf8')).toContain(`echo: ${marker}`);
    // Read back: the same outputs the live events carried.
    const live = run.events.filter((e) => e.type === 'tool_result').map((e) => (e as { result: unknown }).result);
    const read = toolResults(readSessionRecords(trace).lines as Line[]).map((l) => l.result);
    expect(read).toEqual(live);
    expect(read[0]).toEqual({ content: `echo: ${marker}`, is_error: false });
  });

  it('finds the right block when a call id comes back, and falls back to the audit when the run stopped first', () => {
    const dir = path.join(tempDir(), 'session');
    const sink = openSessionWriter(dir, 's');
    const call = { id: 'toolu_1', name: 'echo', input: {} };
    const ts = '2026-12-02T00:00:00.000Z';
    const result = (content: string) => ({
      event: 'tool_result' as const,
      call,
      result: { content, is_error: false },
      duration_ms: 1,
      agent: 'main',
    });
    const toolResultMessage = (content: string, is_error = false) =>
      sink.message({ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content, is_error }] });
    const audit = (content: string) => sink.audit({ ts, session_id: 's', call, duration_ms: 1, is_error: false, aborted: false, content });
    // A first task refused the call (a block no trace line stored), then ran it: the same id twice, as a scripted model does.
    toolResultMessage('Permission denied (a rule)', true);
    sink.record(result('first output'), ts);
    audit('first output');
    toolResultMessage('first output');
    // Then the run was killed after the tool ended and before its result reached the transcript.
    sink.record(result('x'.repeat(2500)), ts);
    audit('x'.repeat(2000));
    sink.close();
    flushSessionLines();
    const read = toolResults(readSessionRecords(path.join(dir, 'trace.jsonl')).lines as Line[]).map((l) => l.result?.content);
    expect(read[0]).toBe('first output');
    expect(read[1]).toBe(
      `[the output (2500 characters) is not in the transcript: the run stopped, or was still running, before its result went to the model; its first 2000 characters, from the audit:]\n${'x'.repeat(2000)}`,
    );
  });
});
