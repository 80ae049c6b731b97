import { describe, expect, it } from 'vitest';
import { stateTags } from '../../machines/query-engine.js';

/** The page's lanes module (plain JavaScript for the browser), as far as these tests read it. */
interface Lane {
  agent: string;
  name: string;
  segments: Array<{ kind: string; startMs: number; ms: number }>;
}
interface LanesModule {
  agentLanes(records: unknown[], until?: number): { lanes: Lane[]; spanMs: number };
}
const lanes = (await import(new URL('../../inspector/lanes.js', import.meta.url).href)) as LanesModule;

const T0 = Date.parse('2026-12-01T10:00:00.000Z');
let i = 0;
const at = (ms: number) => new Date(T0 + ms).toISOString();
const state = (ms: number, name: string, agent?: string) => ({
  i: i++,
  kind: 'state',
  name,
  tags: stateTags(name),
  ts: at(ms),
  ...(agent ? { agent } : {}),
});
const taskCall = (ms: number, k: number, type: string) => ({
  i: i++,
  kind: 'tool_start',
  ts: at(ms),
  call: { id: `toolu_${k}`, name: 'task', input: { description: `d${k}`, prompt: `p${k}`, subagent_type: type } },
});

describe('the timing strip’s lanes', () => {
  it('draws one lane per agent, main first then the children in the order they started, each with its own time by kind', () => {
    const records = [
      state(0, 'call_model.requesting'),
      state(100, 'execute_tool.batch'),
      taskCall(100, 1, 'scout'),
      taskCall(100, 2, 'critic'),
      state(110, 'call_model.requesting', 'main/task-2'),
      state(120, 'call_model.requesting', 'main/task-1'),
      state(300, 'validate_tool', 'main/task-1'),
      state(305, 'execute_tool.running', 'main/task-1'),
      state(400, 'done', 'main/task-2'),
      state(3_305, 'done', 'main/task-1'),
      state(3_310, 'call_model.requesting'),
    ];
    const { lanes: drawn, spanMs } = lanes.agentLanes(records, T0 + 3_500);
    expect(drawn.map((l) => [l.agent, l.name])).toEqual([
      ['main', 'main'],
      ['main/task-2', 'critic'],
      ['main/task-1', 'scout'],
    ]);
    // The children's seconds are the main agent's task call (tool), and each child's own in its lane.
    expect(drawn[0]!.segments).toEqual([
      { kind: 'model', startMs: 0, ms: 100 },
      { kind: 'tool', startMs: 100, ms: 3_210 },
      { kind: 'model', startMs: 3_310, ms: 190 },
    ]);
    expect(drawn[1]!.segments).toEqual([{ kind: 'model', startMs: 110, ms: 290 }]);
    expect(drawn[2]!.segments).toEqual([
      { kind: 'model', startMs: 120, ms: 180 },
      { kind: 'engine', startMs: 300, ms: 5 },
      { kind: 'tool', startMs: 305, ms: 3_000 },
    ]);
    expect(spanMs).toBe(3_500);
  });

  it('merges consecutive states of one kind into one segment and gives a final state no time', () => {
    const records = [
      state(0, 'build_context.starting'),
      state(5, 'call_model.checking_limits'),
      state(7, 'call_model.requesting'),
      state(50, 'done'),
    ];
    expect(lanes.agentLanes(records, T0 + 1_000).lanes).toEqual([
      {
        agent: 'main',
        name: 'main',
        segments: [
          { kind: 'engine', startMs: 0, ms: 7 },
          { kind: 'model', startMs: 7, ms: 43 },
        ],
      },
    ]);
  });
});
