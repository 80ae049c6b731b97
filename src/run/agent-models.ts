import type { ModelClient } from '../model/types.js';

/**
 * The model an agent file names, as Claude Code reads its `model` field: an alias (`sonnet`,
 * `opus`, `haiku`) for the newest model of that family, `inherit` (or nothing) for the parent's
 * model, or a model id as it is.
 */
export const AGENT_MODEL_ALIASES: Readonly<Record<string, string>> = {
  sonnet: 'claude-sonnet-5-5',
  opus: 'claude-opus-5-5',
  haiku: 'claude-haiku-4-5',
};

/**
 * `modelFor` for the engine: one client per model an agent names, made on first use and kept, so
 * three subagents of the same agent share one client. `inherit` is the parent's own client.
 * @example const modelFor = agentModels(parent, (modelId) => createApiModel({ modelId, env, maxThinkingTokens: 0 }));
 */
export function agentModels(parent: ModelClient, create: (modelId: string) => ModelClient): (name: string) => ModelClient {
  const made = new Map<string, ModelClient>();
  return (name) => {
    if (name === 'inherit' || name === '') return parent;
    const modelId = AGENT_MODEL_ALIASES[name] ?? name;
    let client = made.get(modelId);
    if (!client) made.set(modelId, (client = create(modelId)));
    return client;
  };
}
