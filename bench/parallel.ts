import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ModelResponse, ToolResultBlock } from '../machines/types.js';
import { GENERAL_PURPOSE } from '../src/agents/definition.js';
import { query } from '../src/engine/query.js';
import type { ModelClient } from '../src/model/types.js';
import { createPermissionPolicy } from '../src/permissions/index.js';
import { grepTool } from '../src/tools/builtin/grep.js';
import { readFileTool } from '../src/tools/builtin/read-file.js';
import { ToolRegistry } from '../src/tools/registry.js';
import type { Tool } from '../src/tools/types.js';
import { measurePeak } from './memory.js';
import { interleave, msSince, summarize } from './stats.js';
import type { Row } from './table.js';

const usage = { input_tokens: 0, output_tokens: 0 };
const MB = 1024 * 1024;
export const SUBAGENT_RSS_TARGET_MB = 30;

/** A tool on a slow disk: the real tool, after `delayMs`. */
function slow(tool: Tool, delayMs: number, readOnly: boolean): Tool {
  return {
    ...tool,
    readOnly,
    execute: async (context) => {
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      return tool.execute(context);
    },
  };
}

/** One response of 5 read_file and 3 grep calls, then an answer. */
function eightCallsModel(): ModelClient {
  let n = 0;
  return {
    name: 'bench-eight-calls',
    async createMessage(): Promise<ModelResponse> {
      if (n++ > 0) return { content: [{ type: 'text', text: 'done' }], stopReason: 'end_turn', usage };
      const reads = [1, 2, 3, 4, 5].map((k) => ({
        type: 'tool_use',
        id: `toolu_read_${k}`,
        name: 'read_file',
        input: { path: `f${k}.txt` },
      }));
      const greps = [1, 2, 3].map((k) => ({ type: 'tool_use', id: `toolu_grep_${k}`, name: 'grep', input: { pattern: `line ${k}` } }));
      return { content: [...reads, ...greps], stopReason: 'tool_use', usage };
    },
  };
}

async function timedTask(tools: ToolRegistry, workspace: string, model: ModelClient, agents = false): Promise<number> {
  const start = performance.now();
  const events = query('go', {
    model,
    tools,
    permissions: createPermissionPolicy({ mode: 'bypassPermissions', rules: [], workspace }),
    workspace,
    context: { system: 'bench', instructions: [] },
    maxTurns: 1000,
    maxToolCalls: 1000,
    timeoutMs: 3_600_000,
    ...(agents ? { agents: [GENERAL_PURPOSE] } : {}),
  });
  for await (const event of events) {
    if (event.type === 'result' && event.reason !== 'final_answer') throw new Error(`bench task ended with ${event.reason}`);
  }
  return msSince(start);
}

/**
 * A main agent that starts three general-purpose subagents in one response; each does `rounds`
 * read_file rounds, then answers. With `children` 0 the main agent does the same rounds itself.
 */
function subagentsModel(rounds: number, children: number): ModelClient {
  return {
    name: 'bench-subagents',
    async createMessage(request): Promise<ModelResponse> {
      const results = request.messages.at(-1)!.content.filter((b): b is ToolResultBlock => b.type === 'tool_result');
      const isChild = request.system === GENERAL_PURPOSE.prompt;
      const assistantTurns = request.messages.filter((m) => m.role === 'assistant').length;
      if (!isChild && children > 0) {
        if (results.length > 0) return { content: [{ type: 'text', text: 'done' }], stopReason: 'end_turn', usage };
        const task = (k: number) => ({
          type: 'tool_use',
          id: `toolu_task_${k}`,
          name: 'task',
          input: { description: 'read', prompt: 'read f1.txt', subagent_type: GENERAL_PURPOSE.name },
        });
        return { content: Array.from({ length: children }, (_, k) => task(k)), stopReason: 'tool_use', usage };
      }
      if (assistantTurns >= rounds) return { content: [{ type: 'text', text: 'read it' }], stopReason: 'end_turn', usage };
      const read = { type: 'tool_use', id: `toolu_r_${assistantTurns}`, name: 'read_file', input: { path: 'f1.txt' } };
      return { content: [read], stopReason: 'tool_use', usage };
    },
  };
}

/**
 * Benchmark 10: a response of 5 read_file and 3 grep calls on a slow disk (each call waits
 * `delayMs` first) run as one batch, against the same calls run one by one (the tools marked as
 * writers, which never join a batch). Benchmark 11: what three concurrent subagents of `rounds`
 * rounds add to the parent's RSS, against the parent doing those rounds alone.
 */
export async function parallelRows(options: { runs: number; delayMs: number; childRounds: number }): Promise<Row[]> {
  const workspace = mkdtempSync(path.join(os.tmpdir(), 'xagent-bench-parallel-'));
  for (let k = 1; k <= 5; k++) writeFileSync(path.join(workspace, `f${k}.txt`), `line ${k}\n`.repeat(50));
  const registry = (readOnly: boolean) =>
    new ToolRegistry([slow(readFileTool, options.delayMs, readOnly), slow(grepTool, options.delayMs, readOnly)]);
  const batch = registry(true);
  const sequential = registry(false);
  const timed = await interleave(
    options.runs,
    () => timedTask(sequential, workspace, eightCallsModel()),
    () => timedTask(batch, workspace, eightCallsModel()),
  );
  const batchTime = summarize(timed.subject);
  const tools = new ToolRegistry([readFileTool]);
  const alone: number[] = [];
  const withChildren: number[] = [];
  for (let i = 0; i < Math.max(1, Math.ceil(options.runs / 2)); i++) {
    alone.push((await measurePeak(() => timedTask(tools, workspace, subagentsModel(options.childRounds, 0), true))).rssDelta / MB);
    withChildren.push((await measurePeak(() => timedTask(tools, workspace, subagentsModel(options.childRounds, 3), true))).rssDelta / MB);
  }
  const rss = summarize(withChildren);
  const base = summarize(alone);
  return [
    {
      name: `11. 5 read_file + 3 grep, ${options.delayMs} ms each, as a batch`,
      unit: 'ms',
      value: batchTime,
      baseline: { name: 'one by one', value: summarize(timed.baseline) },
      target: `< ${2 * options.delayMs} ms (2 × one call)`,
      met: batchTime.median < 2 * options.delayMs,
    },
    {
      name: `12. peak RSS delta, 3 subagents × ${options.childRounds} rounds`,
      unit: 'MB',
      value: rss,
      baseline: { name: 'parent alone', value: base },
      target: `< ${SUBAGENT_RSS_TARGET_MB} MB more`,
      met: rss.median - base.median < SUBAGENT_RSS_TARGET_MB,
    },
  ];
}
