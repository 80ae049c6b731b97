import type { SessionUpdate } from '@agentclientprotocol/sdk';
import type { Message, ToolResultBlock } from '../../machines/types.js';
import { textContent } from './session-updates.js';
import { toolView } from './tool-view.js';

/**
 * A recorded conversation as the session/updates a `session/load` replays before it answers: the
 * person's messages, the answers and thinking, and each tool call with its recorded result.
 * Tool results travel in the next user message; they are shown with their call.
 * @example for (const update of replayUpdates(session.messages, workspace)) await send(update);
 */
export function replayUpdates(messages: readonly Message[], workspace: string): SessionUpdate[] {
  const results = new Map<string, ToolResultBlock>();
  for (const message of messages) {
    for (const block of message.content) if (block.type === 'tool_result') results.set(String(block.tool_use_id), block as ToolResultBlock);
  }
  const updates: SessionUpdate[] = [];
  for (const message of messages) {
    for (const block of message.content) {
      if (block.type === 'text' && typeof block.text === 'string' && block.text !== '') {
        const sessionUpdate = message.role === 'user' ? 'user_message_chunk' : 'agent_message_chunk';
        updates.push({ sessionUpdate, content: { type: 'text', text: block.text } });
      } else if (block.type === 'thinking' && typeof block.thinking === 'string') {
        updates.push({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: block.thinking } });
      } else if (block.type === 'tool_use' && typeof block.id === 'string' && typeof block.name === 'string') {
        const call = { id: block.id, name: block.name, input: block.input };
        const result = results.get(block.id);
        updates.push({
          sessionUpdate: 'tool_call',
          toolCallId: call.id,
          ...toolView(call, workspace),
          status: result?.is_error ? 'failed' : 'completed',
          rawInput: call.input,
          ...(result ? { content: [textContent(resultText(result), call.name !== 'edit_file' && call.name !== 'write_file')] } : {}),
        });
      }
    }
  }
  return updates;
}

/** A tool_result's content: a string, or (from other writers) an array of text blocks. */
function resultText(result: ToolResultBlock): string {
  const content: unknown = result.content;
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content.map((part) => (part && typeof part === 'object' && 'text' in part ? String(part.text) : '')).join('\n');
  }
  return '';
}
