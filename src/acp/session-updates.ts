import { hasTag, TAG } from '../../machines/state-tags.js';
import type { SessionUpdate, ToolCallContent } from '@agentclientprotocol/sdk';
import type { ToolCall } from '../../machines/types.js';
import { fromSubagent, type AgentEvent } from '../engine/events.js';
import { appliedDiff, changesFile, currentText, diffPath, proposedDiff } from './file-diff.js';
import { toolView } from './tool-view.js';
import type { EditorWrites } from './editor-write-files.js';

/** One call the editor has been told about, until it is completed or failed. */
interface OpenCall {
  call: ToolCall;
  /** The file's text when the tool started (edit_file, write_file): the diff's old side. */
  before: string | null;
  /** Why it did not run, from the last state that had a refusal or an error for it. */
  why?: string;
}

/**
 * Folds the engine's events (the evidence log plus the streamed deltas) into ACP session updates:
 * text and thinking as chunks, each tool call as `tool_call` (pending), then `tool_call_update`s
 * (in_progress, completed or failed, with its output, a diff for edits). Every call the editor
 * saw ends completed or failed, also when it was refused, invalid or interrupted.
 * Synchronous on purpose: it runs as the engine observes, so the old text of a file is read
 * before the tool changes it.
 * @example const updates = sessionUpdates('/ws', (update) => send(update)); run.runTask({ ..., observe: updates.onEvent });
 */
export function sessionUpdates(workspace: string, send: (update: SessionUpdate) => void, editorWrites?: EditorWrites) {
  const open = new Map<string, OpenCall>();
  const seen = new Set<string>();

  const announce = (call: ToolCall): OpenCall => {
    const known = open.get(call.id);
    if (known) return known;
    const entry: OpenCall = { call, before: null };
    if (seen.has(call.id)) return entry;
    seen.add(call.id);
    open.set(call.id, entry);
    const diff = proposedDiff(call, workspace);
    send({
      sessionUpdate: 'tool_call',
      toolCallId: call.id,
      ...toolView(call, workspace),
      status: 'pending',
      rawInput: call.input,
      ...(diff ? { content: [{ type: 'diff', ...diff }] } : {}),
    });
    return entry;
  };

  /** Calls that were announced and never ran (refused, invalid input, the task stopped): failed, with why. */
  const closeOpen = (fallback: string): void => {
    for (const [id, entry] of open) {
      send({
        sessionUpdate: 'tool_call_update',
        toolCallId: id,
        status: 'failed',
        content: [textContent(entry.why ?? fallback)],
      });
    }
    open.clear();
  };

  return {
    onEvent(event: AgentEvent): void {
      if (fromSubagent(event)) return;
      switch (event.type) {
        case 'text_delta':
          send({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: event.text } });
          return;
        case 'thinking_delta':
          send({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: event.thinking } });
          return;
        case 'state': {
          // A new model round: what the previous round asked for and did not run has failed.
          const newRound = hasTag(event, TAG.limits) || hasTag(event, TAG.model);
          if (newRound) closeOpen('Not run.');
          if (!event.call || newRound || hasTag(event, TAG.final)) return;
          const entry = announce(event.call);
          if (event.decision?.behavior === 'deny') entry.why = `Refused: ${event.decision.message ?? event.decision.decidedBy}`;
          else if (event.error) entry.why = event.error.message;
          return;
        }
        case 'tool_start': {
          const entry = announce(event.call);
          if (changesFile(event.call)) entry.before = currentText(event.call, workspace);
          send({ sessionUpdate: 'tool_call_update', toolCallId: event.call.id, status: 'in_progress' });
          return;
        }
        case 'tool_result': {
          const entry = open.get(event.call.id) ?? { call: event.call, before: null };
          open.delete(event.call.id);
          const content: ToolCallContent[] = [];
          if (!event.result.is_error && changesFile(event.call)) {
            const file = diffPath(event.call, workspace);
            const written = file === null ? null : editorWrites?.take(file);
            const diff = written && file !== null ? { path: file, ...written } : appliedDiff(event.call, workspace, entry.before);
            if (diff) content.push({ type: 'diff', ...diff });
          }
          content.push(textContent(event.result.content, event.call.name !== 'edit_file' && event.call.name !== 'write_file'));
          send({
            sessionUpdate: 'tool_call_update',
            toolCallId: event.call.id,
            status: event.result.is_error ? 'failed' : 'completed',
            content,
            rawOutput: event.result,
          });
          return;
        }
        case 'result':
          closeOpen(event.reason === 'user_abort' ? 'Cancelled.' : 'Not run: the task stopped.');
          return;
        default:
          return;
      }
    },
  };
}

/**
 * Tool output as markdown text: in a fence longer than any run of backticks inside it, so
 * output that contains backticks or markdown shows as it is.
 */
export function textContent(text: string, fenced = false): ToolCallContent {
  if (!fenced || text === '') return { type: 'content', content: { type: 'text', text } };
  const longest = Math.max(2, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  return { type: 'content', content: { type: 'text', text: `${fence}\n${text}\n${fence}` } };
}
