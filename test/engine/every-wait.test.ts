import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { queryEngine } from '../../machines/query-engine.js';
import { chartGraph } from '../../machines/chart-graph.js';
import { countTransitions } from '../../src/diagram/transition-counts.js';
import { readSessionRecords } from '../../src/sessions/session-reader.js';
import { runTask } from '../support/engine-harness.js';
import { everyWaitOptions, everyWaitScript } from '../support/every-wait-run.js';

/**
 * Every wait is a state: a run with a PreToolUse hook, a person's answer, a compaction and a Stop
 * hook writes a state line for each, in order, and every step of it is a transition of the chart
 * that the heat map counts.
 */
describe('every wait is a state of its own', () => {
  it('writes a state line for the hook, the person, the summary and the Stop hook, and the heat map counts every step', async () => {
    const run = await runTask(everyWaitScript(), everyWaitOptions());
    expect(run.result.reason).toBe('final_answer');
    const waits = [
      'ask_permission.pre_tool_hooks',
      'ask_permission.asking_user',
      'execute_tool.running',
      'build_context.compacting',
      'call_model.stop_hooks',
    ];
    let at = -1;
    for (const wait of waits) {
      const next = run.states.indexOf(wait, at + 1);
      expect(next, `${wait} after ${at} in ${run.states.join(' ')}`).toBeGreaterThan(at);
      at = next;
    }
    expect(run.states.filter((s) => s === 'call_model.stop_hooks')).toHaveLength(2);
    const graph = chartGraph(queryEngine);
    const { lines } = readSessionRecords(path.join(run.sessionDir, 'trace.jsonl'));
    const counted = countTransitions(graph, [lines]);
    expect(counted).toMatchObject({
      counted: run.trace.length - 1,
      otherChartTasks: 0,
      skipped: { withoutVia: 0, unmatched: 0, otherChart: 0 },
    });
    expect(counted.counts.get('ask_permission.asking_user:xstate.done.actor.askPermission>ask_permission.deciding')).toBe(1);
    expect(counted.counts.get('call_model.stop_hooks:xstate.done.actor.stopHooks[hooksBlocked]>call_model.checking_limits')).toBe(1);
  });
});
