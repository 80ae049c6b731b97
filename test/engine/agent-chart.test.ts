import { afterEach, describe, expect, it, vi } from 'vitest';
import { queryEngine } from '../../machines/query-engine.js';
import type { ToolResultBlock } from '../../machines/types.js';
import { agentChart } from '../../src/engine/agent-chart.js';
import { allowAll, policy, runTask, type Run } from '../support/engine-harness.js';

const echoOnce = [{ content: [{ type: 'tool_use', id: 'e1', name: 'echo', input: { text: 'hi' } }] }, { text: 'done' }];
const denyAll = policy(() => ({ behavior: 'deny', decidedBy: 'test: deny all' }));
const resultOf = (run: Run) => run.messages[2]?.content[0] as ToolResultBlock;

describe('one provided chart for every task (agent-chart.ts)', () => {
  afterEach(() => vi.restoreAllMocks());

  it('runs every task on the chart provided once: no task provides a chart of its own', async () => {
    await runTask(echoOnce);
    const provide = vi.spyOn(queryEngine, 'provide');
    await Promise.all([runTask(echoOnce), runTask(echoOnce), runTask(echoOnce)]);
    expect(provide).not.toHaveBeenCalled();
    expect(agentChart()).toBe(agentChart());
    // The same chart: the one the diagram, the paths and the inspector read.
    expect(agentChart().config).toBe(queryEngine.config);
  });

  it("gives each of two tasks running at once its own rules and actors, never the other one's", async () => {
    const [allowed, denied] = await Promise.all([
      runTask(echoOnce, { permissions: allowAll }),
      runTask(echoOnce, { permissions: denyAll }),
    ]);
    expect(allowed.result.reason).toBe('final_answer');
    expect(resultOf(allowed)).toMatchObject({ tool_use_id: 'e1', is_error: false, content: 'echo: hi' });
    expect(JSON.stringify(denied.trace)).toContain('test: deny all');
    expect(JSON.stringify(allowed.trace)).not.toContain('test: deny all');
    expect(resultOf(denied)).toMatchObject({ tool_use_id: 'e1', is_error: true });
    expect(denied.audit).toHaveLength(0);
    expect(allowed.audit).toHaveLength(1);
  });
});
