import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { queryEngine } from '../../machines/query-engine.js';
import { chartGraph } from '../../machines/chart-graph.js';
import { countTransitions } from '../../src/diagram/transition-counts.js';
import { loadSessionHistory } from '../../src/inspector/replay.js';
import { readSessionRecords } from '../../src/sessions/session-reader.js';
import { runTask } from '../support/engine-harness.js';
import { homeWithFixtures } from '../sessions/fixtures.js';

/**
 * A trace recorded on main before the hierarchical chart (record version 2, flat states,
 * positional transition ids such as `ask_permission:always:2`), committed as a fixture: it
 * replays with a note that an older chart wrote it, and none of its steps is counted on a
 * transition of this chart.
 */
const OLD = 'recorded-by-main-v2';
const oldTrace = () => path.join(homeWithFixtures(OLD), 'sessions', OLD, 'trace.jsonl');

describe('a trace recorded by an older chart', () => {
  const graph = chartGraph(queryEngine);

  it('replays its steps and results, and says an older chart recorded it', () => {
    const history = loadSessionHistory(oldTrace());
    expect(history.records[0]).toMatchObject({ kind: 'meta', chart: { recorded: null, current: graph.fingerprint } });
    expect(history.records[1]).toMatchObject({ kind: 'notice', message: expect.stringContaining('older chart') });
    const states = history.records.flatMap((r) => (r.kind === 'state' ? [r.name] : []));
    expect(states[0]).toBe('build_context');
    expect(states.at(-1)).toBe('done');
    expect(history.records.filter((r) => r.kind === 'tool_result')).toHaveLength(2);
    expect(history.records.at(-1)).toMatchObject({ kind: 'result', reason: 'final_answer' });
  });

  it('counts none of its steps on this chart: positional ids and flat states match nothing', () => {
    const { lines } = readSessionRecords(oldTrace());
    const result = countTransitions(graph, [lines]);
    expect(result.tasks).toBe(1);
    expect(result.otherChartTasks).toBe(1);
    expect(result.counted).toBe(0);
    expect(result.skipped.otherChart).toBe(15);
    expect([...result.counts.values()].every((n) => n === 0)).toBe(true);
  });

  it('is told apart from a trace of this chart, whose every step is counted on its own transition', async () => {
    const run = await runTask([{ text: 'The answer.' }]);
    const { lines } = readSessionRecords(path.join(run.sessionDir, 'trace.jsonl'));
    const result = countTransitions(graph, [lines, readSessionRecords(oldTrace()).lines]);
    expect(result.tasks).toBe(2);
    expect(result.otherChartTasks).toBe(1);
    expect(result.counted).toBe(run.trace.length - 1);
    expect(result.counts.get('call_model.requesting:xstate.done.actor.callModel>done')).toBe(1);
    expect(loadSessionHistory(path.join(run.sessionDir, 'trace.jsonl')).records.some((r) => r.kind === 'notice')).toBe(false);
  });

  it('keeps counting a step of another chart when this chart has the same transition by id', async () => {
    const run = await runTask([{ text: 'The answer.' }]);
    const { lines } = readSessionRecords(path.join(run.sessionDir, 'trace.jsonl'));
    // The same run, as if a chart with one more branch elsewhere had recorded it.
    const foreign = lines.map((l) => ('event' in l && l.event === 'task_start' ? { ...l, chart: '00000000000000' } : l));
    const result = countTransitions(graph, [foreign]);
    expect(result.otherChartTasks).toBe(1);
    expect(result.counted).toBe(run.trace.length - 1);
    expect(result.skipped.otherChart).toBe(0);
  });
});
