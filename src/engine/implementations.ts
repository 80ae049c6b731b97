import { fairTurn, yieldTurn } from '../system/fair-turns.js';
import { randomUUID } from 'node:crypto';
import type { CallModelInput } from '../../machines/query-engine.js';
import type { HookOutcome, HookRunInput } from '../../machines/hooks.js';
import { hooksFor, runEventHooks, runHooks, type HookRunReport, type ResolvedHook } from '../hooks/index.js';
import { claudeToolName } from '../hooks/claude-input.js';
import { transcriptPath } from '../sessions/layout.js';
import { toolDurationMs } from '../sessions/tool-duration.js';
import { addUsage } from '../../machines/engine-context.js';
import type { Message, ModelResponse, PermissionDecision, TextBlock, ToolCall, ToolResult, Usage } from '../../machines/types.js';
import type { ModelClient } from '../model/types.js';
import type { PermissionPolicy } from '../permissions/types.js';
import { limitInputDepth } from '../tools/input-depth.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { ReadGate } from '../tools/read-gate.js';
import type { CommandSandbox } from '../tools/types.js';
import type { Clock } from './clock.js';
import type { TaskClock } from './task-clock.js';
import type { AgentEvent } from './events.js';
import type { SessionSink } from '../sessions/session-writer.js';
import type { EvidenceBody, EvidenceRecord } from '../sessions/records.js';
import type { CompactContextInput, CompactionOutcome } from '../../machines/context-budget.js';
import { runCompaction } from '../context/run-compaction.js';
import { immediateJournal, type StepJournal } from './step-journal.js';
import { sessionCheckpoints } from '../rewind/checkpointer.js';
import type { TaskLedger } from './task-ledger.js';
import { ownLimits } from '../../machines/task-limits.js';
import type { AgentImplementations } from './agent-chart.js';

/** Writes one line of the evidence log (stamped by the session sink) and yields the event it is. */
export type Note = <B extends EvidenceBody>(body: B) => B & EvidenceRecord;

export interface EngineServices {
  /** The id hooks get as `prompt_id` (a subagent's services carry its parent's); default a new one per task. */
  promptId?: string;
  model: ModelClient;
  tools: ToolRegistry;
  permissions: PermissionPolicy;
  workspace: string;
  system: string;
  clock: Clock;
  /** The deadline's clock: paused while the person is asked (query() drives it); default `clock`. */
  deadlineClock?: TaskClock;
  sink: SessionSink;
  /** Yields an event that is no evidence line (the streamed deltas). */
  emit: (event: AgentEvent) => void;
  /** Writes an evidence line and yields its event (query()'s `note`). */
  note: Note;
  sessionId: string;
  /** Resolved hooks; empty: the chart's hook guards never hold and no hook actor starts. */
  hooks?: readonly ResolvedHook[];
  /** Command hooks run inside it. */
  hookSandbox?: CommandSandbox;
  /** Set over the inherited environment for bash and command hooks (the settings' `env`). */
  commandEnv?: Readonly<Record<string, string>>;
  /** The agent path the streamed deltas carry (`main`, `main/task-1`). */
  agent?: string;
  /** A subagent's name (its agent file's): its hooks are told `agent_id` (the path) and `agent_type`, and its Stop is SubagentStop. */
  agentType?: string;
  /** The conversation the engine keeps from the chart's emits (the model and the summary read it). */
  conversation: readonly Message[];
  /** What every agent of the task has spent, against the task's limits; default: this agent's own counters. */
  ledger?: TaskLedger;
  /** Where model rounds and tool calls run; default: at once (a durable runner journals them). */
  journal?: StepJournal;
}

/** What the trace says of a step an earlier attempt of the task started and did not finish (a durable runner's worker died). */
const RERUN_MODEL = 'the worker running this task stopped during this request: it is sent again';
const RERUN_TOOL = 'the worker running this task stopped while this tool ran: it runs again (at least once)';

/** With a model and tools that answer at once, nothing else (SIGINT, timers) would ever run; many tasks take turns. */
const yieldToEventLoop = yieldTurn;

/** The real actors and rules behind the chart's names for one agent (agent-chart.ts finds them by the agent). */
export function engineImplementations(services: EngineServices): Omit<AgentImplementations, 'startSubagent'> {
  const { model, tools, permissions, workspace, system, clock, sink, emit, note, sessionId } = services;
  const hooks = services.hooks ?? [];
  const agentField = services.agent ? { agent: services.agent } : {};
  const journal = services.journal ?? immediateJournal;
  // The turn a tool call belongs to (its retry line says so): the round that asked for it.
  let toolTurn = 0;
  // A recorded session keeps each file's bytes before write_file / edit_file change it (for rewind).
  const checkpoints = sink.dir ? sessionCheckpoints(sink.dir) : undefined;
  // The last answer's text: Stop hooks get it as `last_assistant_message`, as in Claude Code.
  let lastAssistantText = '';
  const hookSession = {
    sessionId,
    // One id per prompt: every hook run for this task says which prompt it belongs to (`prompt_id`).
    promptId: services.promptId ?? randomUUID(),
    lastAssistantMessage: () => lastAssistantText,
    transcriptPath: sink.dir ? transcriptPath(sink.dir) : null,
    ...(sink.dir ? { toolDurationMs: (callId: string) => toolDurationMs(sink.dir as string, callId) } : {}),
    cwd: workspace,
    ...(services.commandEnv ? { env: services.commandEnv } : {}),
    ...(permissions.mode ? { permissionMode: permissions.mode } : {}),
    ...(services.agentType && services.agent ? { agent: { id: services.agent, type: services.agentType } } : {}),
  };
  // A subagent's chart waits for its Stop hooks where the main agent's does; what runs there is SubagentStop.
  const hookEventOf = (event: HookRunInput['event']) => (services.agentType && event === 'Stop' ? 'SubagentStop' : event);
  const { ledger, conversation } = services;
  // Each hook run is evidence: a line in the trace and a `hook` event (stream-json, inspector).
  const reportHook = (turn: number) => (report: HookRunReport) => {
    note({ event: 'hook', turn, ...report });
  };
  /** What runEventHooks needs for an event outside the chart's five (PreCompact, Notification). */
  const eventHookOptions = (turn: number, signal: AbortSignal) => ({
    hooks,
    session: hookSession,
    signal,
    turn,
    report: reportHook(turn),
    ...(services.hookSandbox ? { sandbox: services.hookSandbox } : {}),
  });
  const notifyPermissionPrompt = (call: ToolCall, signal: AbortSignal) =>
    runEventHooks({
      ...eventHookOptions(0, signal),
      event: 'Notification',
      fields: { message: `xagent needs your permission to use ${claudeToolName(call.name)}`, notification_type: 'permission_prompt' },
    });
  const hookMatches = (event: 'PreToolUse' | 'PostToolUse', call: ToolCall) => hooksFor(hooks, { event, call }).length > 0;
  const validate = (call: ToolCall) => tools.validate(call);
  const decide = (call: ToolCall) => permissions.decide(call, { readOnly: tools.get(call.name)?.readOnly ?? false });
  // Read rules judge every file a search shows, as they would judge read_file of it: the same policy, one file at a time.
  const readGateFor =
    (call: ToolCall): ReadGate =>
    (relative) => {
      const verdict = decide({ ...call, input: { path: relative } });
      return verdict.behavior === 'allow' ? null : { behavior: verdict.behavior, reason: verdict.decidedBy };
    };
  // The tool list does not change during a task: built once, not per model round.
  const toolSpecs = tools.specs();
  /** One tool call: its start and result as evidence, its audit line (also when it is stopped), the result. */
  const runTool = async (call: ToolCall, signal: AbortSignal): Promise<ToolResult> => {
    ledger?.toolStarted();
    note({ event: 'tool_start', call });
    const started = clock.now();
    type AuditFields = { is_error: boolean; aborted: boolean; crashed?: boolean; sandboxed?: boolean; content: string };
    let audited = false;
    const audit = (fields: AuditFields) => {
      if (audited) return;
      audited = true;
      sink.audit({
        ts: new Date(clock.now()).toISOString(),
        session_id: sessionId,
        call,
        duration_ms: clock.now() - started,
        ...fields,
      });
    };
    // Stopped mid-run (Ctrl-C, --timeout): the line is written now, while the session files are still open.
    const onAbort = () =>
      audit({
        is_error: true,
        aborted: true,
        content: 'Interrupted: the task stopped while the tool was running; the tool was stopped.',
      });
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      const result = await journal.step(
        `tool ${call.id}`,
        () =>
          tools.execute(call, {
            signal,
            workspace,
            readGate: readGateFor(call),
            ...(checkpoints ? { checkpoints } : {}),
            ...(services.commandEnv ? { env: services.commandEnv } : {}),
          }),
        () => note({ event: 'retry', state: 'execute_tool.running', turn: toolTurn, attempt: 1, delay_ms: 0, message: RERUN_TOOL, call }),
      );
      // Many tasks' tools end together: each takes its turn, so the loop never stalls on all of them at once.
      const turn = fairTurn();
      if (turn) await turn;
      const sandboxed = result.sandboxed ? { sandboxed: true } : {};
      audit({ is_error: result.isError, aborted: signal.aborted, ...sandboxed, content: result.content.slice(0, 2000) });
      const duration_ms = clock.now() - started;
      note({ event: 'tool_result', call, result: { content: result.content, is_error: result.isError, ...sandboxed }, duration_ms });
      return result;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      audit({ is_error: true, aborted: signal.aborted, crashed: true, content: message });
      note({ event: 'tool_result', call, result: { content: message, is_error: true }, duration_ms: clock.now() - started });
      throw error;
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  };
  return {
    actors: {
      callModel: async ({ input, signal }: { input: CallModelInput; signal: AbortSignal }): Promise<ModelResponse> => {
        await yieldToEventLoop();
        signal.throwIfAborted();
        toolTurn = input.turn + 1;
        const request = () =>
          model.createMessage({
            system,
            messages: conversation,
            tools: toolSpecs,
            signal,
            onTextDelta: (text) => emit({ type: 'text_delta', text, ...agentField }),
            onThinkingDelta: (thinking) => emit({ type: 'thinking_delta', thinking, ...agentField }),
            onRetry: ({ attempt, delayMs, status, message }) => {
              note({
                event: 'retry',
                state: 'call_model.requesting',
                turn: input.turn,
                attempt,
                delay_ms: delayMs,
                ...(status !== undefined ? { status } : {}),
                message,
              });
            },
          });
        // A tool input nested thousands of levels deep would overflow every JSON.stringify after this.
        ledger?.roundStarted();
        let raw: ModelResponse;
        try {
          raw = await journal.step(`model ${input.turn + 1}`, request, () =>
            note({ event: 'retry', state: 'call_model.requesting', turn: input.turn, attempt: 1, delay_ms: 0, message: RERUN_MODEL }),
          );
        } catch (error) {
          ledger?.roundFailed();
          throw error;
        }
        const response = limitInputDepth(raw);
        // The whole text of the turn is evidence (it streamed as deltas, which are not).
        const text = responseText(response);
        if (text) note({ event: 'text', turn: input.turn + 1, text });
        lastAssistantText = text;
        note({ event: 'usage', usage: response.usage, total: addUsage(input.usage, response.usage) });
        note({ event: 'turn_end', reason: response.stopReason });
        return response;
      },
      // The person is asked; Notification hooks hear of it at the same moment (they cannot answer, only tell).
      askPermission: async ({ input, signal }: { input: { call: ToolCall; decision: PermissionDecision }; signal: AbortSignal }) => {
        const [decision] = await Promise.all([
          permissions.ask(input.call, input.decision, signal),
          notifyPermissionPrompt(input.call, signal),
        ]);
        return decision;
      },
      executeTool: ({ input: { call }, signal }: { input: { call: ToolCall }; signal: AbortSignal }) => runTool(call, signal),
      compactContext: async ({ input, signal }: { input: CompactContextInput; signal: AbortSignal }): Promise<CompactionOutcome> => {
        await yieldToEventLoop();
        const { reason, turn } = input;
        const noteCompaction = (fields: { tokens_after: number | null; removed: number; kept: number; usage?: Usage; error?: string }) => {
          const { removed, kept, ...rest } = fields;
          note({
            event: 'compact',
            turn,
            reason,
            tokens_before: input.tokens,
            removed_messages: removed,
            kept_messages: kept,
            ...rest,
          });
        };
        try {
          // PreCompact hooks run first (Claude Code's `auto` trigger); they cannot stop the summary.
          await runEventHooks({
            ...eventHookOptions(turn, signal),
            event: 'PreCompact',
            fields: { trigger: 'auto', custom_instructions: '' },
          });
          const compaction = await journal.step(
            `compaction ${turn}`,
            () => runCompaction({ model, system, tools: toolSpecs, messages: [...conversation], window: input.window, signal }),
            () => undefined,
          );
          if (!compaction) {
            noteCompaction({ tokens_after: null, removed: 0, kept: conversation.length });
            return null;
          }
          noteCompaction({
            tokens_after: compaction.tokensAfter,
            removed: compaction.removed,
            kept: conversation.length - compaction.removed,
            usage: compaction.usage,
          });
          const { summary, removed, tokensBefore, tokensAfter, usage } = compaction;
          return { summary, removed, tokensBefore, tokensAfter, usage, reason };
        } catch (error) {
          if (!signal.aborted)
            noteCompaction({
              tokens_after: null,
              removed: 0,
              kept: conversation.length,
              error: error instanceof Error ? error.message : String(error),
            });
          throw error;
        }
      },
      // Journaled like a tool call: a replayed task must get the verdicts it got, or it would take another path.
      runHooks: ({ input, signal }: { input: HookRunInput; signal: AbortSignal }): Promise<HookOutcome> =>
        journal.step(
          `hooks ${input.event} ${input.turn}${input.call ? ` ${input.call.id}` : ''}`,
          () =>
            runHooks({
              hooks,
              input: { ...input, event: hookEventOf(input.event) },
              session: hookSession,
              signal,
              report: reportHook(input.turn),
              ...(services.hookSandbox ? { sandbox: services.hookSandbox } : {}),
            }),
          () => undefined,
        ),
      deadline: ({ sendBack, receive, input }) => {
        const taskClock = services.deadlineClock;
        const time = taskClock ?? clock;
        const deadlineAt = input.startedAt + input.timeoutMs;
        let timer: NodeJS.Timeout | undefined;
        // setTimeout fires at once for delays past 2^31-1 ms, so long deadlines are re-armed in steps.
        const arm = () => {
          clearTimeout(timer);
          // While the person is asked the clock stands still: no timer until it runs again.
          if (taskClock?.paused) return;
          timer = setTimeout(tick, Math.min(2 ** 31 - 1, Math.max(0, deadlineAt - time.now())));
        };
        const tick = () => {
          const now = time.now();
          if (!taskClock?.paused) sendBack({ type: 'CLOCK.TICK', now });
          if (now < deadlineAt) arm();
        };
        arm();
        // The chart says when the person's wait starts and ends: the task's clock stands still in between.
        receive((event) => {
          if (event.type === 'DEADLINE.PAUSE') taskClock?.pause();
          else taskClock?.resume();
        });
        const stopFollowing = taskClock?.onResume(arm);
        return () => {
          clearTimeout(timer);
          stopFollowing?.();
        };
      },
    },
    rules: {
      validate,
      decide,
      limits: ledger?.limits ?? ownLimits,
      batch: {
        validate,
        decide,
        concurrencySafe: (call) => tools.get(call.name)?.readOnly === true,
        preToolUse: (call) => hookMatches('PreToolUse', call),
        postToolUse: (call) => hookMatches('PostToolUse', call),
        ...(ledger ? { limits: ledger.limits } : {}),
      },
      hookMatches,
    },
  };
}

function responseText(response: ModelResponse): string {
  return response.content
    .filter((b): b is TextBlock => b.type === 'text')
    .map((b) => b.text)
    .join('');
}
