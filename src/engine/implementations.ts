import { fromCallback, fromPromise, type EventObject } from 'xstate';
import { decidePermissionAction, validateCallAction } from '../../machines/query-engine.js';
import { addUsage } from '../../machines/engine-context.js';
import type { Message, ModelResponse, PermissionDecision, ToolCall, ToolResult, Usage } from '../../machines/types.js';
import type { ModelClient } from '../model/types.js';
import type { PermissionPolicy } from '../permissions/types.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { Clock } from './clock.js';
import type { AgentEvent } from './events.js';
import type { SessionSink } from './session-files.js';

export interface EngineServices {
  model: ModelClient;
  tools: ToolRegistry;
  permissions: PermissionPolicy;
  workspace: string;
  system: string;
  clock: Clock;
  sink: SessionSink;
  emit: (event: AgentEvent) => void;
  sessionId: string;
}

/** With a model and tools that answer at once, nothing else (SIGINT, timers) would ever run. */
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The real actors and rules behind the chart's names, for `queryEngine.provide(...)`. */
export function engineImplementations(services: EngineServices) {
  const { model, tools, permissions, workspace, system, clock, sink, emit, sessionId } = services;
  let total: Usage = { input_tokens: 0, output_tokens: 0 };
  // The tool list does not change during a task: built once, not per model round.
  const toolSpecs = tools.specs();
  return {
    actors: {
      callModel: fromPromise<ModelResponse, { messages: Message[]; turn: number }>(async ({ input, signal }) => {
        await yieldToEventLoop();
        signal.throwIfAborted();
        const response = await model.createMessage({
          system,
          messages: input.messages,
          tools: toolSpecs,
          signal,
          onTextDelta: (text) => emit({ type: 'text_delta', text }),
          onThinkingDelta: (thinking) => emit({ type: 'thinking_delta', thinking }),
          onRetry: ({ attempt, delayMs, status, message }) => {
            sink.trace({ event: 'retry', ts: new Date().toISOString(), session_id: sessionId, state: 'call_model', turn: input.turn, attempt, delay_ms: delayMs, status, message });
            emit({ type: 'retry', attempt, delay_ms: delayMs, status, message });
          },
        });
        total = addUsage(total, response.usage);
        emit({ type: 'usage', usage: response.usage, total });
        emit({ type: 'turn_end', reason: response.stopReason });
        return response;
      }),
      askPermission: fromPromise<PermissionDecision, { call: ToolCall; decision: PermissionDecision }>(({ input, signal }) =>
        permissions.ask(input.call, input.decision, signal),
      ),
      executeTool: fromPromise<ToolResult, { call: ToolCall }>(async ({ input: { call }, signal }) => {
        emit({ type: 'tool_start', call });
        const started = clock.now();
        const audit = (fields: object) =>
          sink.audit({ ts: new Date().toISOString(), session_id: sessionId, call, duration_ms: clock.now() - started, ...fields });
        try {
          const result = await tools.execute(call, { signal, workspace });
          audit({ is_error: result.isError, aborted: signal.aborted, content: result.content.slice(0, 2000) });
          emit({ type: 'tool_result', call, result: { content: result.content, is_error: result.isError } });
          return result;
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          audit({ is_error: true, aborted: signal.aborted, crashed: true, content: message });
          emit({ type: 'tool_result', call, result: { content: message, is_error: true } });
          throw error;
        }
      }),
      deadline: fromCallback<EventObject, { startedAt: number; timeoutMs: number }>(({ sendBack, input }) => {
        const deadlineAt = input.startedAt + input.timeoutMs;
        // setTimeout fires at once for delays past 2^31-1 ms, so long deadlines are re-armed in steps.
        const arm = () => setTimeout(tick, Math.min(2 ** 31 - 1, Math.max(0, deadlineAt - clock.now())));
        let timer: NodeJS.Timeout | undefined;
        const tick = () => {
          const now = clock.now();
          sendBack({ type: 'CLOCK.TICK', now });
          if (now < deadlineAt) timer = arm();
        };
        timer = arm();
        return () => clearTimeout(timer);
      }),
    },
    actions: {
      validateCall: validateCallAction((call) => tools.validate(call)),
      decidePermission: decidePermissionAction((call) =>
        permissions.decide(call, { readOnly: tools.get(call.name)?.readOnly ?? false }),
      ),
    },
  };
}
