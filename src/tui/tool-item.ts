import type { ToolCall } from '../../machines/types.js';
import { appliedChange, changeWords } from '../terminal/edit-diff.js';
import { describeActivity, summarizeResult } from '../terminal/tool-activity.js';
import { visible } from '../terminal/visible.js';
import type { ItemBody } from './store.js';

/** Lines of an applied edit's diff kept in the scrollback; a larger one says how many more there were. */
export const SCROLLBACK_DIFF_LINES = 60;

export type ToolItem = Extract<ItemBody, { kind: 'tool' }>;

/**
 * A finished tool call as the scrollback keeps it: its line, what came of it, and for an applied
 * edit Claude Code's `Updated a.ts with 1 addition and 1 removal` with the diff under it.
 * `before` / `after` are the file's text before the call ran and now, where they were read.
 * @example toolItem({ call, result: { content: 'Edited a.ts: …', is_error: false }, before, after })
 */
export function toolItem({
  call,
  result,
  before = null,
  after = null,
}: {
  call: ToolCall;
  result: { content: string; is_error: boolean };
  before?: string | null;
  after?: string | null;
}): ToolItem {
  const label = describeActivity(call);
  const { summary, detail } = summarizeResult(call, result);
  const change = result.is_error ? null : appliedChange({ call, resultContent: result.content, before, after });
  if (!change) return { kind: 'tool', label, summary, isError: result.is_error, detail };
  const file = call.input && typeof call.input === 'object' ? (call.input as { path?: unknown }).path : undefined;
  return {
    kind: 'tool',
    label,
    summary: `Updated ${visible(typeof file === 'string' ? file : 'the file')} with ${changeWords(change.added, change.removed)}`,
    isError: false,
    detail,
    diff: change.lines.slice(0, SCROLLBACK_DIFF_LINES),
    moreDiffLines: Math.max(0, change.lines.length - SCROLLBACK_DIFF_LINES),
  };
}
