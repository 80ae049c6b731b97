import type { Message, ToolResultBlock, ToolUseBlock } from '../../machines/types.js';

/** The result given to a tool_use whose result was never recorded: the process died first. */
export const INTERRUPTED_TEXT = 'interrupted: the process stopped before this tool finished; it was not re-run';

/** What audit.jsonl says a call returned (it is written as each tool finishes, before the results message). */
export interface RecordedResult {
  content: string;
  isError: boolean;
}

export interface PairingRepair {
  /** The conversation to continue from: every tool_use answered exactly once. */
  messages: Message[];
  /** A user message to append to the file (results for the last response's unanswered calls), if any. */
  tail: Message | null;
  /** True when something before the tail had to change (dropped or inserted results), so the file must be rewritten. */
  rewritten: boolean;
  notes: string[];
}

const toolUseIds = (message: Message): string[] =>
  message.content.filter((b): b is ToolUseBlock => b.type === 'tool_use' && typeof b.id === 'string').map((b) => b.id);

const isToolResult = (block: Message['content'][number]): block is ToolResultBlock => block.type === 'tool_result';

/**
 * Makes a recorded conversation one the API accepts: each tool_use gets exactly one tool_result
 * in the user message(s) that follow it (adjacent user messages are merged when sent). Missing
 * results are filled in, never by re-running the tool: with what audit.jsonl recorded if the tool
 * finished, else as an is_error "interrupted" result. Results without a matching tool_use, and
 * second results for one id, are dropped.
 * @example repairPairing([user, assistantWithToolUse]).tail // => { role: 'user', content: [interrupted result] }
 */
export function repairPairing(messages: readonly Message[], recorded: ReadonlyMap<string, RecordedResult> = new Map()): PairingRepair {
  const out: Message[] = [];
  const notes: string[] = [];
  let rewritten = false;
  let pending: { ids: string[]; answered: Set<string> } | null = null;

  const missingResults = (): Message | null => {
    if (!pending) return null;
    const { answered } = pending;
    const missing = pending.ids.filter((id) => !answered.has(id));
    if (missing.length === 0) return null;
    const finished = missing.filter((id) => recorded.has(id));
    notes.push(
      `${missing.length} tool call(s) had no result (${missing.join(', ')}): ` +
        (finished.length ? `${finished.length} taken from audit.jsonl, ` : '') +
        `${missing.length - finished.length} marked interrupted; nothing was re-run`,
    );
    return { role: 'user', content: missing.map((id) => closingResult(id, recorded.get(id))) };
  };

  messages.forEach((message, index) => {
    if (message.role === 'assistant') {
      const fix = missingResults();
      if (fix) {
        out.push(fix);
        rewritten = true;
      }
      out.push(message);
      const ids = toolUseIds(message);
      pending = ids.length > 0 ? { ids, answered: new Set() } : null;
      return;
    }
    const kept = message.content.filter((block) => {
      if (!isToolResult(block)) return true;
      const id = block.tool_use_id;
      if (pending?.ids.includes(id) && !pending.answered.has(id)) {
        pending.answered.add(id);
        return true;
      }
      notes.push(
        `message ${index + 1}: dropped a tool_result for ${id}: ${pending?.answered.has(id) ? 'a second result for one call' : 'no matching tool_use before it'}`,
      );
      return false;
    });
    if (kept.length === message.content.length) {
      out.push(message);
      return;
    }
    rewritten = true;
    if (kept.length > 0) out.push({ role: message.role, content: kept });
  });

  const tail = missingResults();
  if (tail) out.push(tail);
  return { messages: out, tail, rewritten, notes };
}

function closingResult(id: string, recorded: RecordedResult | undefined): ToolResultBlock {
  if (!recorded) return { type: 'tool_result', tool_use_id: id, content: INTERRUPTED_TEXT, is_error: true };
  return {
    type: 'tool_result',
    tool_use_id: id,
    content: `${recorded.content}\n[the process stopped after this tool finished, before its result was saved; this is the output as far as the audit log kept it]`,
    is_error: recorded.isError,
  };
}

/**
 * Every way `messages` breaks the pairing rule, as sentences; empty when each tool_use has exactly
 * one tool_result before the next assistant message and no result is orphaned or duplicated.
 * @example pairingProblems(transcript) // => ['toolu_1 (message 2) has no tool_result']
 */
export function pairingProblems(messages: readonly Message[]): string[] {
  const problems: string[] = [];
  const seenUses = new Set<string>();
  let open: { ids: string[]; at: number; counts: Map<string, number> } | null = null;
  const close = () => {
    if (!open) return;
    for (const id of open.ids) {
      const n = open.counts.get(id) ?? 0;
      if (n !== 1) problems.push(`${id} (message ${open.at + 1}) has ${n === 0 ? 'no' : n} tool_result${n === 0 ? '' : 's'}`);
    }
    open = null;
  };
  messages.forEach((message, index) => {
    if (message.role === 'assistant') {
      close();
      const ids = toolUseIds(message);
      for (const id of ids) {
        if (seenUses.has(id)) problems.push(`tool_use id ${id} is used twice (message ${index + 1})`);
        seenUses.add(id);
      }
      if (ids.length > 0) open = { ids, at: index, counts: new Map() };
      return;
    }
    for (const block of message.content) {
      if (!isToolResult(block)) continue;
      const current = open as { ids: string[]; counts: Map<string, number> } | null;
      if (!current?.ids.includes(block.tool_use_id)) {
        problems.push(`message ${index + 1}: tool_result for ${block.tool_use_id} has no tool_use just before it`);
        continue;
      }
      current.counts.set(block.tool_use_id, (current.counts.get(block.tool_use_id) ?? 0) + 1);
    }
  });
  close();
  return problems;
}
