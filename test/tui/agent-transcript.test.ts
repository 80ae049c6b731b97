import { describe, expect, it } from 'vitest';
import type { EvidenceRecord } from '../../src/sessions/records.js';
import { addToTranscripts, transcriptLines, type AgentTranscripts } from '../../src/tui/agent-transcript.js';

/** Lines of the evidence log as the engine writes them (the stamp's seq and ts aside). */
const stamp = { v: 4, ts: '2026-01-01T00:00:00.000Z', session_id: 's' };
const line = (agent: string, body: object) => ({ ...stamp, agent, ...body }) as unknown as EvidenceRecord;
const read = (id: string, path: string) => ({ id, name: 'read_file', input: { path } });

const fold = (records: EvidenceRecord[]): AgentTranscripts => records.reduce(addToTranscripts, new Map() as AgentTranscripts);

describe("a subagent's transcript for Ctrl-O, from its own lines of the evidence log", () => {
  it('holds its prompt, texts, calls with short results in the model order (batched results on their own calls) and how it ended', () => {
    const child = 'main/task-1';
    const transcripts = fold([
      line('main', { event: 'task_start', prompt: 'the person’s prompt', model: 'm', limits: {} }),
      line('main', { event: 'tool_start', call: { id: 't', name: 'task', input: {} } }),
      line(child, { event: 'task_start', prompt: 'Read a and b', model: 'm', limits: {} }),
      line(child, { state: 'call_model.requesting', via: { event: 'always' } }),
      line(child, { event: 'text', turn: 1, text: 'Reading both.' }),
      line(child, { event: 'tool_start', call: read('r1', 'a.txt') }),
      line(child, { event: 'tool_start', call: read('r2', 'b.txt') }),
      line(child, {
        event: 'tool_result',
        call: read('r2', 'b.txt'),
        result: { content: 'No such file: b.txt', is_error: true },
        duration_ms: 1,
      }),
      line(child, {
        event: 'tool_result',
        call: read('r1', 'a.txt'),
        result: { content: '     1\tone\n     2\ttwo', is_error: false },
        duration_ms: 1,
      }),
      line(child, { event: 'text', turn: 2, text: 'a holds two lines;\nb is missing.' }),
      line(child, { event: 'result', reason: 'final_answer', is_error: false, text: 'x', turns: 2, tool_calls: 2, duration_ms: 3000 }),
      line('main/task-1/task-1', { event: 'task_start', prompt: 'a grandchild', model: 'm', limits: {} }),
    ]);
    expect([...transcripts.keys()]).toEqual([child, 'main/task-1/task-1']);
    expect(transcriptLines(transcripts.get(child) ?? [])).toEqual([
      '› Read a and b',
      '',
      '  Reading both.',
      '',
      '⏺ read_file a.txt',
      '  ⎿ 2 lines',
      '',
      '⏺ read_file b.txt',
      '  ⎿ Error: No such file: b.txt',
      '',
      '  a holds two lines;',
      '  b is missing.',
      '',
      '⎿ Done (2 turns · 2 tool calls · 3.0s)',
    ]);
  });

  it('says a call still runs, and a child that stopped says why; model-written control characters are shown, not obeyed', () => {
    const child = 'main/task-2';
    const running = fold([
      line(child, { event: 'task_start', prompt: 'go\x1b[2J', model: 'm', limits: {} }),
      line(child, { event: 'tool_start', call: read('r1', 'a.txt') }),
    ]);
    expect(transcriptLines(running.get(child) ?? [])).toEqual(['› go\\x1b[2J', '', '⏺ read_file a.txt', '  ⎿ running…']);
    const stopped = addToTranscripts(
      running,
      line(child, { event: 'result', reason: 'max_tool_calls', is_error: true, text: '', turns: 1, tool_calls: 1, duration_ms: 500 }),
    );
    expect(transcriptLines(stopped.get(child) ?? []).at(-1)).toBe('⎿ Stopped: max_tool_calls (1 turn · 1 tool call · 0.5s)');
    // The earlier map is left as it was: an open view compares lists to know it is behind.
    expect(running.get(child)).toHaveLength(2);
  });
});
