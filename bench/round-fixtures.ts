import os from 'node:os';
import type { ModelResponse } from '../machines/types.js';
import type { ModelClient } from '../src/model/types.js';
import { createPermissionPolicy } from '../src/permissions/index.js';
import type { PermissionPolicy } from '../src/permissions/types.js';
import { ToolRegistry } from '../src/tools/registry.js';
import type { Tool } from '../src/tools/types.js';

/** A read-only tool that does nothing, with a real schema so ajv has something to check. */
export const noopTool: Tool = {
  name: 'noop',
  description: 'Does nothing.',
  inputSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'], additionalProperties: false },
  readOnly: true,
  execute: async () => ({ content: 'ok', isError: false }),
};

/**
 * A zero-latency model: a `noop` tool_use for each of the first `rounds` requests, then a text
 * answer. `onRequest` sees each request number (the memory sampler uses it).
 * @example const model = roundsModel(1000); // 1000 tool rounds, then "done"
 */
export function roundsModel(rounds: number, onRequest?: (n: number) => void): ModelClient {
  let n = 0;
  return {
    name: 'bench-rounds',
    async createMessage(): Promise<ModelResponse> {
      const k = n++;
      onRequest?.(k);
      if (k < rounds) {
        return {
          content: [{ type: 'tool_use', id: `toolu_bench_${k}`, name: 'noop', input: { n: k } }],
          stopReason: 'tool_use',
          usage: { input_tokens: 0, output_tokens: 0 },
        };
      }
      return { content: [{ type: 'text', text: 'done' }], stopReason: 'end_turn', usage: { input_tokens: 0, output_tokens: 0 } };
    },
  };
}

/** Everything a round needs besides the model: a registry with the no-op tool and the real policy. */
export interface RoundKit {
  tools: ToolRegistry;
  permissions: PermissionPolicy;
  workspace: string;
}

/** The real registry (ajv) and the real permission policy in its default mode (read-only tools allowed). */
export function roundKit(): RoundKit {
  const workspace = os.tmpdir();
  return {
    tools: new ToolRegistry([noopTool]),
    permissions: createPermissionPolicy({ mode: 'default', rules: [], workspace }),
    workspace,
  };
}
