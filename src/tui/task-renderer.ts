import { hasTag, TAG } from '../../machines/state-tags.js';
import { addUsage } from '../../machines/engine-context.js';
import type { ToolCall } from '../../machines/types.js';
import { compactLine, hookLine, retryLine } from '../terminal/event-lines.js';
import { thinkingSummary } from '../terminal/text-renderer.js';
import { describeActivity } from '../terminal/tool-activity.js';
import { fileTextForDiff } from '../terminal/edit-diff.js';
import { toolItem } from './tool-item.js';
import { fromSubagent, type QueryResult } from '../engine/events.js';
import { subagentLines, subagentStatus } from './subagent-lines.js';
import { TASK_TOOL } from '../agents/task-input.js';
import { stopMessage } from '../engine/stop-message.js';
import { visible } from '../terminal/visible.js';
import type { Renderer } from '../terminal/renderer.js';
import type { RunConfig } from '../run/run-config.js';
import type { TuiStore } from './store.js';
import type { TranscriptEntry } from './agent-transcript.js';

const estimateTokens = (chars: number) => Math.ceil(chars / 4);
const STREAM_FLUSH_MS = 80;

/**
 * Task events as store updates: finished text and tool lines become items, the rest is live.
 * `transcriptOf` gives a subagent's transcript so far (by agent path): a finished subagent's is kept for Ctrl-O.
 */
export function taskRenderer(
  store: TuiStore,
  config: Pick<RunConfig, 'limits' | 'workspace'>,
  transcriptOf: (agent: string) => readonly TranscriptEntry[] | undefined = () => undefined,
): Renderer {
  let base = store.get().usage;
  const before = new Map<string, string | null>();
  let pending = '';
  let thought = '';
  let flushTimer: NodeJS.Timeout | undefined;
  // The call the chart is on (state lines carry it), and the one running now: a stop or a hook keeps its line.
  let currentCall: ToolCall | undefined;
  let runningCall: ToolCall | undefined;
  const flush = () => {
    clearTimeout(flushTimer);
    flushTimer = undefined;
    if (!pending) return;
    const streaming = store.get().streaming + pending;
    pending = '';
    store.update({ streaming, turnTokens: estimateTokens(streaming.length) });
  };
  return {
    onEvent: (event) => {
      const child = fromSubagent(event);
      if (child || ((event.type === 'tool_start' || event.type === 'tool_result') && event.call.name === TASK_TOOL))
        store.update({ subagents: subagentLines(store.get().subagents, event, Date.now()) });
      if (child) return;
      if (event.type !== 'text_delta') flush();
      // Thinking shows as one dim line when it ends, as in text mode.
      if (event.type !== 'thinking_delta' && thought) {
        store.note(visible(thinkingSummary(thought)), 'dim');
        thought = '';
      }
      const state = store.get();
      switch (event.type) {
        case 'state':
          if (event.call) currentCall = event.call;
          if (hasTag(event, TAG.model)) store.update({ activity: { kind: 'model', since: Date.now() }, turnTokens: 0 });
          break;
        case 'text_delta':
          // Gathered and drawn a few times a second: a redraw per delta would starve the keyboard.
          pending += event.text;
          flushTimer ??= setTimeout(flush, STREAM_FLUSH_MS);
          break;
        case 'usage':
          store.update({ usage: addUsage(base, event.total), turnTokens: 0 });
          break;
        case 'turn_end':
          if (state.streaming.trim()) store.add({ kind: 'assistant', text: state.streaming });
          store.update({ streaming: '' });
          break;
        case 'tool_start':
          runningCall = event.call;
          // The file as it was, for the diff of what the call changes (null for other tools).
          before.set(event.call.id, fileTextForDiff(event.call, config.workspace));
          store.update({ activity: { kind: 'tool', label: describeActivity(event.call), since: Date.now(), call: event.call } });
          break;
        case 'tool_result': {
          runningCall = undefined;
          const item = toolItem({
            call: event.call,
            result: event.result,
            before: before.get(event.call.id) ?? null,
            after: fileTextForDiff(event.call, config.workspace),
          });
          before.delete(event.call.id);
          // A subagent that answered: Claude Code's `Done (3 tool uses · 4.8k tokens · 3.0s)`; its line leaves the live area.
          const done = store.get().subagents.find((l) => l.callId === event.call.id);
          if (done) store.update({ subagents: store.get().subagents.filter((l) => l !== done) });
          store.add(done && !event.result.is_error ? { ...item, summary: subagentStatus(done, Date.now()) } : item);
          // The child's lines are all in by its task call's result (its result line is written first).
          const entries = done && transcriptOf(done.agent);
          const subagent = done && entries ? { subagent: { title: done.title, agent: done.agent, entries } } : {};
          store.update({ activity: null, lastOutput: { label: item.label, content: event.result.content, ...subagent } });
          break;
        }
        case 'thinking_delta':
          thought += event.thinking;
          break;
        case 'compact':
          store.note(visible(compactLine(event)), 'dim');
          break;
        case 'retry':
          store.note(visible(retryLine(event)), 'warn');
          break;
        case 'hook': {
          // A PreToolUse hook that refused the call: the call keeps its line, with the hook's reason.
          if (event.hook_event === 'PreToolUse' && (event.outcome === 'blocked' || event.outcome === 'denied') && currentCall) {
            const why = event.message ? `: ${visible(event.message.split('\n', 1)[0] ?? '')}` : '';
            store.add({
              kind: 'tool',
              label: describeActivity(currentCall),
              summary: `${event.outcome} by hook ${visible(event.command)}${why}`,
              isError: true,
              detail: [],
            });
          }
          const line = hookLine(event);
          if (line) store.note(visible(line), event.outcome === 'error' || event.outcome === 'timeout' ? 'warn' : 'dim');
          break;
        }
        case 'result':
          break;
        default: {
          const unreachable: never = event;
          return unreachable;
        }
      }
    },
    finish: (result) => {
      flush();
      // An interrupted child never reaches `done` in the stream: the task's end clears every line.
      store.update({ subagents: [] });
      before.clear();
      // A tool stopped mid-run (Esc, --timeout) sends no result: its line stays, saying what happened.
      if (runningCall) {
        const how =
          result.reason === 'user_abort'
            ? 'interrupted by you'
            : result.reason === 'timeout'
              ? 'stopped: out of time'
              : `stopped (${result.reason})`;
        store.add({ kind: 'tool', label: describeActivity(runningCall), summary: how, isError: true, detail: [] });
        runningCall = undefined;
      }
      const { streaming } = store.get();
      // A turn cut off by a stop stays visible (and in the transcript, see recordInterruption).
      if (streaming.trim()) store.add({ kind: 'assistant', text: streaming });
      const cost = (result as QueryResult & { total_cost_usd?: number | null }).total_cost_usd;
      store.update({
        streaming: '',
        activity: null,
        usage: addUsage(base, result.usage),
        ...(typeof cost === 'number' ? { costUsd: (store.get().costUsd ?? 0) + cost } : {}),
      });
      base = store.get().usage;
      if (result.reason === 'user_abort') store.note('Interrupted · the next message tells xagent so', 'warn');
      else {
        const message = stopMessage(result, config.limits);
        if (message) store.note(visible(message), result.reason === 'final_answer' ? 'warn' : 'error');
      }
    },
  };
}
