import type { Message, ToolResultBlock, ToolUseBlock } from '../machines/types.js';
import type { ModelClient } from '../src/model/types.js';
import type { RoundKit } from './round-fixtures.js';

/**
 * The baseline: the seed's pseudo-code as a plain async while-loop, doing the same per-round work
 * as the engine (ajv validation through the same registry, the same policy's decide, execute,
 * append the assistant message and one user message of tool results) and nothing else.
 * Returns the number of model rounds.
 * @example const turns = await plainLoop({ model: roundsModel(100), ...roundKit(), maxTurns: 200 });
 */
export async function plainLoop(options: RoundKit & { model: ModelClient; maxTurns: number; messages?: Message[] }): Promise<number> {
  const { model, tools, permissions, workspace, maxTurns } = options;
  const messages: Message[] = options.messages ?? [];
  messages.push({ role: 'user', content: [{ type: 'text', text: 'go' }] });
  const specs = tools.specs();
  const signal = new AbortController().signal;
  let turn = 0;
  while (turn < maxTurns) {
    const response = await model.createMessage({ system: 'bench', messages, tools: specs, signal });
    turn++;
    messages.push({ role: 'assistant', content: response.content });
    const calls = response.content.filter((b): b is ToolUseBlock => b.type === 'tool_use');
    if (calls.length === 0) return turn;
    const results: ToolResultBlock[] = [];
    for (const { id, name, input } of calls) {
      const call = { id, name, input };
      const validation = tools.validate(call);
      if (!validation.ok) {
        results.push({ type: 'tool_result', tool_use_id: id, content: validation.error.message, is_error: true });
        continue;
      }
      const decision = permissions.decide(call, { readOnly: tools.get(name)?.readOnly ?? false });
      if (decision.behavior !== 'allow') throw new Error(`plain loop: ${name} was not allowed (${decision.decidedBy})`);
      const result = await tools.execute(call, { signal, workspace });
      results.push({ type: 'tool_result', tool_use_id: id, content: result.content, is_error: result.isError });
    }
    messages.push({ role: 'user', content: results });
  }
  return turn;
}
