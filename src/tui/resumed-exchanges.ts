import type { Message, TextBlock, ToolResultBlock, ToolUseBlock } from '../../machines/types.js';
import { promptText } from '../rewind/user-messages.js';
import { INTERRUPT_MARKER } from '../sessions/interruption.js';
import { describeActivity } from '../terminal/tool-activity.js';
import { visible } from '../terminal/visible.js';
import { markdownReady } from './markdown-loader.js';
import type { ItemBody, TuiStore } from './store.js';
import { toolItem } from './tool-item.js';

/** How many of the person's messages, with what followed each, a resumed session shows. */
export const RESUMED_EXCHANGES = 3;

/**
 * The last exchanges of a resumed session as scrollback items, as Claude Code's `--continue`
 * shows them: each message the person sent, the answers (markdown, rendered by the item view as a
 * live answer is) and the tool calls with what came of them, edits with their diff. Earlier
 * exchanges are counted in a note above. Tool output is not kept for Ctrl-O: only the live one is.
 * @example store.add(...resumedItems(session.messages));
 */
export function resumedItems(messages: readonly Message[], exchanges = RESUMED_EXCHANGES): ItemBody[] {
  const starts = messages.flatMap((message, i) => (promptText(message) !== null ? [i] : []));
  const from = starts.length > exchanges ? (starts.at(-exchanges) ?? 0) : 0;
  const earlier = starts.filter((i) => i < from).length;
  const results = new Map<string, ToolResultBlock>();
  for (const message of messages)
    for (const block of message.content)
      if (block.type === 'tool_result') results.set((block as ToolResultBlock).tool_use_id, block as ToolResultBlock);

  const items: ItemBody[] = [];
  if (earlier > 0)
    items.push({ kind: 'note', text: `… ${earlier} earlier message${earlier === 1 ? '' : 's'} of yours not shown`, tone: 'dim' });
  for (const message of messages.slice(from)) {
    if (message.role === 'user') {
      const prompt = promptText(message);
      if (prompt !== null) items.push({ kind: 'user', text: visible(prompt) });
      else if (message.content.some((b) => b.type === 'text' && (b as TextBlock).text === INTERRUPT_MARKER))
        items.push({ kind: 'note', text: 'Interrupted', tone: 'warn' });
      continue;
    }
    let text = '';
    const flush = () => {
      if (text.trim()) items.push({ kind: 'assistant', text });
      text = '';
    };
    for (const block of message.content) {
      if (block.type === 'text') text += (block as TextBlock).text;
      if (block.type !== 'tool_use') continue;
      flush();
      const { id, name, input } = block as ToolUseBlock;
      const call = { id, name, input };
      const result = results.get(id);
      items.push(
        result
          ? { ...toolItem({ call, result: { content: resultText(result), is_error: result.is_error === true } }), detail: [] }
          : { kind: 'tool', label: describeActivity(call), summary: 'no result recorded', isError: true, detail: [] },
      );
    }
    flush();
  }
  return items;
}

/** Prints the last exchanges once the markdown renderer is loaded (the scrollback is printed once, never redrawn). */
export async function showResumed(store: TuiStore, messages: readonly Message[]): Promise<void> {
  await markdownReady;
  store.add(...resumedItems(messages));
}

/** A result's text: a string, or (as the API also allows) a list of blocks whose text parts are joined. */
function resultText(result: ToolResultBlock): string {
  const content: unknown = result.content;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((b: { type?: unknown; text?: unknown }) => (b?.type === 'text' && typeof b.text === 'string' ? b.text : ''))
    .join('\n');
}
