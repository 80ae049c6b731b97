import { describe, expect, it } from 'vitest';
import { stateTags } from '../../machines/query-engine.js';

/** The page's timing module (plain JavaScript for the browser), as far as these tests read it. */
interface Round {
  n: number;
  totalMs: number;
  ms: Record<'model' | 'hooks' | 'tool' | 'person' | 'engine', number>;
  tools: Array<{ name: string; ms: number }>;
  ttftMs: number | null;
}
interface TimingModule {
  timeKind(state: { kind: 'state'; tags: readonly string[] }): string;
  roundTimings(records: unknown[], until?: number): Round[];
}
const timing = (await import(new URL('../../inspector/timing.js', import.meta.url).href)) as TimingModule;

const T0 = Date.parse('2026-12-01T10:00:00.000Z');
let i = 0;
const at = (ms: number) => new Date(T0 + ms).toISOString();
const state = (ms: number, name: string, call?: { name: string }) => ({
  i: i++,
  kind: 'state',
  name,
  // As the trace writes them: each state line carries its state's tags, which the page reads.
  tags: stateTags(name),
  ts: at(ms),
  ...(call ? { call } : {}),
});
const text = (ms: number) => ({ i: i++, kind: 'text', text: 'hi', ts: at(ms) });

describe('the timing strip', () => {
  it('counts the model, hook runs, the tool, the person and the engine each as its own kind of time', () => {
    expect(
      [
        'call_model.requesting',
        'build_context.compacting',
        'ask_permission.pre_tool_hooks',
        'call_model.stop_hooks',
        'execute_tool',
        'ask_permission.asking_user',
        'ask_permission.deciding',
        'validate_tool',
        'execute_tool.batch',
      ].map((name) => timing.timeKind({ kind: 'state', tags: stateTags(name) })),
    ).toEqual(['model', 'model', 'hooks', 'hooks', 'tool', 'person', 'engine', 'engine', 'tool']);
  });

  it('gives each state the time until the next one, and the state a live run is in the time until now', () => {
    const records = [
      state(0, 'build_context.starting'),
      state(5, 'build_context.measuring'),
      state(10, 'call_model.checking_limits'),
      state(12, 'call_model.requesting'),
      text(300),
      state(1_000, 'validate_tool'),
      state(1_002, 'ask_permission.deciding'),
      state(1_004, 'ask_permission.asking_user', { name: 'bash' }),
      state(13_004, 'ask_permission.deciding'),
      state(13_006, 'execute_tool', { name: 'bash' }),
    ];
    const [round] = timing.roundTimings(records, T0 + 23_806);
    expect(round).toMatchObject({
      n: 1,
      totalMs: 23_806,
      ms: { model: 988, hooks: 0, tool: 10_800, person: 12_000, engine: 18 },
      tools: [{ name: 'bash', ms: 10_800 }],
      ttftMs: 288,
    });
  });

  it('starts a round at each limit check before a request, keeps a compaction on the way in the same round, and gives done no time', () => {
    const records = [
      state(0, 'build_context.starting'),
      state(1, 'build_context.measuring'),
      state(2, 'call_model.checking_limits'),
      state(3, 'call_model.requesting'),
      state(100, 'validate_tool'),
      state(101, 'ask_permission.deciding'),
      state(102, 'execute_tool', { name: 'read_file' }),
      state(150, 'append_tool_result.collected'),
      state(151, 'call_model.checking_limits'),
      state(152, 'build_context.compacting'),
      state(2_152, 'call_model.checking_limits'),
      state(2_153, 'call_model.requesting'),
      state(2_253, 'done'),
    ];
    const rounds = timing.roundTimings(records, T0 + 99_999);
    expect(rounds.map((r) => [r.n, r.totalMs, r.ms.model, r.ms.tool])).toEqual([
      [1, 151, 97, 48],
      [2, 2_102, 2_100, 0],
    ]);
  });
});
