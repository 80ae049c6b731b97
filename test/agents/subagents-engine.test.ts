import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Message, ModelResponse, ToolResultBlock } from '../../machines/types.js';
import { GENERAL_PURPOSE, type AgentDefinition } from '../../src/agents/definition.js';
import type { ModelClient, ModelRequest } from '../../src/model/types.js';
import { readSessionRecords } from '../../src/sessions/session-reader.js';
import { ToolRegistry } from '../../src/tools/registry.js';
import { policy, runTask, tempDir, testTools, unpairedToolUses } from '../support/engine-harness.js';

const usage = { input_tokens: 10, output_tokens: 5 };
const lastText = (messages: readonly Message[]) => {
  const first = messages[0]?.content[0] as { text?: string } | undefined;
  return first?.text ?? '';
};

/**
 * A model that reads its request: the main agent (no system prompt of an agent) asks for `tasks`
 * task calls, then answers with the results in order; a subagent echoes the word of its prompt,
 * then answers with what the echo gave. Several agents ask it at once.
 */
/** A request as it was sent (the engine appends to the messages array afterwards). */
interface SeenRequest {
  system: string;
  tools: string[];
  length: number;
  first: string;
}

function delegatingModel(tasks: Array<{ agent: string; word: string }>): ModelClient & { requests: SeenRequest[] } {
  const requests: SeenRequest[] = [];
  return {
    name: 'delegating',
    requests,
    async createMessage(request): Promise<ModelResponse> {
      requests.push({
        system: request.system,
        tools: request.tools.map((t) => t.name),
        length: request.messages.length,
        first: lastText(request.messages),
      });
      const last = request.messages.at(-1)!;
      const results = last.content.filter((b): b is ToolResultBlock => b.type === 'tool_result');
      const isMain = !request.system.startsWith('SUB:') && request.system !== GENERAL_PURPOSE.prompt;
      if (isMain && results.length === 0) {
        return {
          content: tasks.map((t, i) => ({
            type: 'tool_use',
            id: `task_${i}`,
            name: 'task',
            input: { description: `look up ${t.word}`, prompt: `word: ${t.word}`, subagent_type: t.agent },
          })),
          stopReason: 'tool_use',
          usage,
        };
      }
      if (isMain) return { content: [{ type: 'text', text: results.map((r) => r.content).join(' | ') }], stopReason: 'end_turn', usage };
      if (results.length === 0) {
        const word = lastText(request.messages).replace('word: ', '');
        return { content: [{ type: 'tool_use', id: `echo_${word}`, name: 'echo', input: { text: word } }], stopReason: 'tool_use', usage };
      }
      return { content: [{ type: 'text', text: `found ${results[0]!.content}` }], stopReason: 'end_turn', usage };
    },
  };
}

const scout: AgentDefinition = {
  name: 'scout',
  description: 'Looks words up',
  prompt: 'SUB: you look words up',
  tools: ['echo'],
  model: null,
  permissionMode: null,
  source: 'test',
};

describe('subagents through query()', () => {
  it('runs three task calls of one response as three children and answers with their results in order', async () => {
    const model = delegatingModel([
      { agent: 'scout', word: 'alpha' },
      { agent: 'general-purpose', word: 'beta' },
      { agent: 'scout', word: 'gamma' },
    ]);
    // Every agent's chart reports its steps, each context deep-frozen by the harness (nothing changes a snapshot in place).
    const frozenBy = new Map<string, boolean>();
    const onMicrostep = (m: { context: object }, agent: string) =>
      frozenBy.set(agent, (frozenBy.get(agent) ?? true) && Object.isFrozen(m.context));
    const run = await runTask([], { model, agents: [GENERAL_PURPOSE, scout], onMicrostep });
    expect(run.result.reason).toBe('final_answer');
    expect(run.result.text).toBe('found echo: alpha | found echo: beta | found echo: gamma');
    expect([...frozenBy.entries()].sort()).toEqual([
      ['main', true],
      ['main/task-1', true],
      ['main/task-2', true],
      ['main/task-3', true],
    ]);
    // The three task calls ran as one batch; each child had its own conversation, starting from its prompt alone.
    expect(run.states.filter((s) => s === 'execute_tool.batch')).toHaveLength(1);
    const childFirst = model.requests.filter((r) => r.length === 1 && r.first.startsWith('word:'));
    expect(childFirst).toHaveLength(3);
    // A scout has only its tools; the general-purpose agent has the run's tools and a task tool of its own (depth 1 < 2).
    const scoutRequest = childFirst.find((r) => r.system === scout.prompt)!;
    expect(scoutRequest.tools).toEqual(['echo']);
    const generalRequest = childFirst.find((r) => r.system === GENERAL_PURPOSE.prompt)!;
    expect(generalRequest.tools).toEqual(['echo', 'slow', 'crash', 'task']);
    // Every line names its agent; the children's usage rolls up into the parent's.
    const agents = new Set(run.log.map((l) => l.agent));
    expect([...agents].sort()).toEqual(['main', 'main/task-1', 'main/task-2', 'main/task-3']);
    expect(run.result.usage.input_tokens).toBe(10 * (2 + 3 * 2));
    // The children's conversations stay out of the session's transcript, which stays valid.
    expect(unpairedToolUses(run.transcript)).toEqual([]);
    expect(run.transcript).toEqual(run.messages);
    // Child events reach the stream with their agent; their results do not end the parent's stream.
    expect(run.events.filter((e) => e.type === 'result').map((e) => (e as { agent?: string }).agent)).toEqual(['main']);
    expect(run.events.some((e) => e.type === 'tool_start' && (e as { agent?: string }).agent === 'main/task-2')).toBe(true);
  });

  it("gives an is_error result naming the stop when a child stops on the task's tool budget, and the parent goes on to answer", async () => {
    const model = delegatingModel([{ agent: 'scout', word: 'alpha' }]);
    // The task call is the task's one tool call: the child's echo would be a second, so it stops before it runs.
    const run = await runTask([], { model, agents: [scout], maxToolCalls: 1 });
    expect(run.result.reason).toBe('final_answer');
    expect(run.result.text).toContain('The agent scout (main/task-1) stopped with max_tool_calls');
    expect(run.events.filter((e) => e.type === 'tool_start').map((e) => (e as { agent?: string }).agent)).toEqual(['main']);
    expect(run.result.tool_calls).toBe(1);
  });

  it("keeps a subagent's tool output in the trace (its conversation is not in the transcript), the main agent's in the transcript only", async () => {
    const run = await runTask([], { model: delegatingModel([{ agent: 'scout', word: 'alpha' }]), agents: [scout] });
    expect(run.result.reason).toBe('final_answer');
    type ResultLine = { event?: string; agent?: string; result?: object };
    const results = (lines: ResultLine[]) => lines.filter((l) => l.event === 'tool_result').map((l) => [l.agent, l.result]);
    expect(results(run.log as ResultLine[])).toEqual([
      ['main/task-1', { content: 'echo: alpha', is_error: false }],
      ['main', { is_error: false, stored: 'transcript', length: 'found echo: alpha'.length }],
    ]);
    expect(results(readSessionRecords(path.join(run.sessionDir, 'trace.jsonl')).lines as ResultLine[])).toEqual([
      ['main/task-1', { content: 'echo: alpha', is_error: false }],
      ['main', { content: 'found echo: alpha', is_error: false }],
    ]);
  });

  it("counts a child's rounds toward the task's max_turns: the parent stops too, every tool_use paired", async () => {
    const model = delegatingModel([{ agent: 'scout', word: 'alpha' }]);
    // The parent's round and the child's first (its echo) are the task's two: neither may ask the model again.
    const run = await runTask([], { model, agents: [scout], maxTurns: 2 });
    expect(run.result.reason).toBe('max_turns');
    expect(run.result.turns).toBe(2);
    expect(model.requests).toHaveLength(2);
    expect(unpairedToolUses(run.transcript)).toEqual([]);
    const taskResult = run.transcript.at(-1)!.content[0] as ToolResultBlock;
    expect(taskResult).toMatchObject({ tool_use_id: 'task_0', is_error: true });
    expect(String(taskResult.content)).toContain('stopped with max_turns');
  });

  it('names an unknown agent type in an is_error result', async () => {
    const model = delegatingModel([{ agent: 'nobody', word: 'x' }]);
    const run = await runTask([], { model, agents: [scout] });
    expect(run.result.text).toBe('No agent named "nobody". Available: scout.');
  });

  it('stops delegation at depth 2: a grandchild has no task tool', async () => {
    const requests: ModelRequest[] = [];
    const model: ModelClient = {
      name: 'recursive',
      async createMessage(request) {
        requests.push(request);
        const results = request.messages.at(-1)!.content.filter((b) => b.type === 'tool_result');
        if (results.length > 0 || !request.tools.some((t) => t.name === 'task')) {
          return { content: [{ type: 'text', text: `depth answer (${results.length})` }], stopReason: 'end_turn', usage };
        }
        const input = { description: 'deeper', prompt: 'go deeper', subagent_type: 'general-purpose' };
        return { content: [{ type: 'tool_use', id: `t${requests.length}`, name: 'task', input }], stopReason: 'tool_use', usage };
      },
    };
    const run = await runTask([], { model, agents: [GENERAL_PURPOSE] });
    expect(run.result.reason).toBe('final_answer');
    expect([...new Set(run.log.map((l) => l.agent))]).toEqual(['main', 'main/task-1', 'main/task-1/task-1']);
    expect(requests.filter((r) => !r.tools.some((t) => t.name === 'task'))).toHaveLength(1);
  });

  it('asks permission for a child one dialog at a time, labelled with the agent', async () => {
    const asked: string[] = [];
    let open = 0;
    let overlapped = false;
    const permissions = policy(
      (call) => (call.name === 'echo' ? { behavior: 'ask', decidedBy: 'test: echo asks' } : { behavior: 'allow', decidedBy: 'test' }),
      async (_call, pending) => {
        open++;
        if (open > 1) overlapped = true;
        asked.push(pending.decidedBy);
        await new Promise((resolve) => setImmediate(resolve));
        open--;
        return { behavior: 'allow', decidedBy: 'user: yes' };
      },
    );
    const model = delegatingModel([
      { agent: 'scout', word: 'alpha' },
      { agent: 'scout', word: 'beta' },
    ]);
    const run = await runTask([], { model, agents: [scout], permissions });
    expect(run.result.text).toBe('found echo: alpha | found echo: beta');
    expect(overlapped).toBe(false);
    expect(asked.sort()).toEqual(['agent main/task-1 (scout) asks: test: echo asks', 'agent main/task-2 (scout) asks: test: echo asks']);
  });

  it('aborts every running child and pairs every tool_use, the children too', async () => {
    const controller = new AbortController();
    const log = { aborted: [] as string[] };
    let children = 0;
    const model: ModelClient = {
      name: 'slow children',
      async createMessage(request) {
        const isMain = request.system !== scout.prompt;
        const results = request.messages.at(-1)!.content.filter((b) => b.type === 'tool_result');
        if (isMain && results.length === 0) {
          const task = (i: number) => ({
            type: 'tool_use',
            id: `task_${i}`,
            name: 'task',
            input: { description: 'wait', prompt: 'wait', subagent_type: 'scout' },
          });
          return { content: [task(1), task(2), task(3)], stopReason: 'tool_use', usage };
        }
        if (++children === 3) setImmediate(() => controller.abort());
        return {
          content: [{ type: 'tool_use', id: `slow_${children}`, name: 'slow', input: { ms: 60_000 } }],
          stopReason: 'tool_use',
          usage,
        };
      },
    };
    const run = await runTask([], {
      model,
      agents: [{ ...scout, tools: ['slow'] }],
      tools: new ToolRegistry(testTools(log)),
      signal: controller.signal,
      sessionDir: path.join(tempDir(), 'session'),
    });
    expect(run.result.reason).toBe('user_abort');
    expect(log.aborted).toEqual(['slow', 'slow', 'slow']);
    expect(unpairedToolUses(run.transcript)).toEqual([]);
    const childEnds = run.log.filter((l) => l.event === 'result' && l.agent !== 'main').map((l) => l.reason);
    expect(childEnds).toEqual(['user_abort', 'user_abort', 'user_abort']);
  });

  it("stops the children as the task's timeout stops the parent: each child's result says timeout, not user_abort", async () => {
    const log = { aborted: [] as string[] };
    const model: ModelClient = {
      name: 'slow child',
      async createMessage(request) {
        const isMain = request.system !== scout.prompt;
        const results = request.messages.at(-1)!.content.filter((b) => b.type === 'tool_result');
        if (isMain && results.length === 0) {
          const input = { description: 'wait', prompt: 'wait', subagent_type: 'scout' };
          return { content: [{ type: 'tool_use', id: 'task_1', name: 'task', input }], stopReason: 'tool_use', usage };
        }
        return { content: [{ type: 'tool_use', id: 'slow_1', name: 'slow', input: { ms: 60_000 } }], stopReason: 'tool_use', usage };
      },
    };
    const run = await runTask([], {
      model,
      agents: [{ ...scout, tools: ['slow'] }],
      tools: new ToolRegistry(testTools(log)),
      timeoutMs: 300,
      sessionDir: path.join(tempDir(), 'session'),
    });
    expect(run.result.reason).toBe('timeout');
    // The child's slow call, stopped by the parent's stop or by the child's own deadline (the same instant: either may fire first).
    expect(log.aborted[0]).toBe('slow');
    expect(unpairedToolUses(run.transcript)).toEqual([]);
    const childEnds = run.log.filter((l) => l.event === 'result' && l.agent !== 'main').map((l) => l.reason);
    expect(childEnds).toEqual(['timeout']);
  });
});
