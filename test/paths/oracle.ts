import { toolFailure } from '../../machines/call-steps.js';
import { COMPACTION_THRESHOLD } from '../../machines/context-budget.js';
import type { EngineInput } from '../../machines/engine-context.js';
import type { HookEventName, HookOutcome } from '../../machines/hooks.js';
import type { EngineStatePath } from '../../machines/query-engine.js';
import { isRecoverable } from '../../machines/recovery.js';
import type { ModelResponse, PermissionDecision, StopReason, ToolCall, ToolResult, ToolUseBlock } from '../../machines/types.js';
import type { EngineOutput } from '../../machines/engine-context.js';
import { isSubagentCall } from '../../machines/subagent-steps.js';
import {
  concurrencySafe,
  CONTEXT_WINDOW,
  HOOKED_ANSWER,
  hookMatches,
  LIMITS,
  policyFromInput,
  validateEcho,
  type PathEvent,
} from '../../src/paths/engine-model.js';

/**
 * What a path implies, worked out without the chart: a straight reading of the seed's rules
 * (validate, then permission, then execute; results back before the next model call; limits,
 * abort and timeout stop; recovery.ts says which failures go back to the model) and of the hooks
 * as Claude Code has them (SessionStart and UserPromptSubmit before the prompt is sent, PreToolUse
 * before the permission prompt, PostToolUse after a result, Stop after a final answer). The state
 * it expects is the wait the task is in, by its full path. The replay checks the real actor against
 * this after every event.
 */
export interface Expected {
  state: EngineStatePath;
  reason: StopReason | null;
  turn: number;
  toolCalls: number;
  /** The conversation's shape: `user:text`, `assistant:tool_use:<id>`, `user:tool_result:<id>:err|ok`. */
  transcript: string[][];
}

interface Queued {
  call: ToolCall;
  truncated: boolean;
}

export class Oracle {
  private state: EngineStatePath = 'build_context.starting';
  private reason: StopReason | null = null;
  private turn = 0;
  private toolCalls = 0;
  private queue: Queued[] = [];
  private results: string[] = [];
  /** The calls running together in execute_tool.batch: each one's result once its child answered (is_error, crashed). */
  private batch: Array<{ isError: boolean; crashed: boolean } | null> = [];
  /** The prompt is only sent once the UserPromptSubmit hooks let it. */
  private transcript: string[][] = [];
  /** Text blocks the prompt's message gets: the prompt, then one per hook context. */
  private promptBlocks = ['user:text'];
  /** The rules' decision for the call whose PreToolUse hooks are running; null when the rules threw. */
  private rulesDecision: PermissionDecision | null = null;
  /** The last answer's usage passed 80 % of the window: the next model call compacts first. */
  private near = false;
  /** A Stop hook already sent the model back (the chart's hooks.stopActive). */
  private stopHookActive = false;
  /** At most one compaction per round; a prompt too long after it is a model_error. */
  private compactedAtTurn: number | null = null;
  private readonly hooks: ReadonlySet<HookEventName>;

  /** The task opens the session (SessionStart hooks, if any), then its prompt's hooks run, if any. */
  constructor(input: EngineInput) {
    this.hooks = new Set(input.hooks ?? []);
    // What every request carries counts from the start; the prompt only adds to it.
    this.near = (input.baseTokens ?? 0) >= CONTEXT_WINDOW * COMPACTION_THRESHOLD;
    if (input.sessionStart && this.hooks.has('SessionStart')) this.state = 'build_context.session_start_hooks';
    else this.promptHooks();
  }

  expected(): Expected {
    return { state: this.state, reason: this.reason, turn: this.turn, toolCalls: this.toolCalls, transcript: this.transcript };
  }

  apply(event: PathEvent): void {
    if (this.state === 'done') throw new Error(`event ${event.variant} after done`);
    switch (event.type) {
      case 'ABORT':
        return this.stop(event.reason === 'timeout' ? 'timeout' : 'user_abort');
      case 'CLOCK.TICK':
        if ((event.now ?? 0) - LIMITS.startedAt >= LIMITS.timeoutMs) this.stop('timeout');
        return;
      case 'xstate.done.actor.callModel':
        return this.modelAnswered(event.output as ModelResponse);
      case 'xstate.error.actor.callModel':
        if (/prompt is too long/.test(String((event.error as Error).message)) && this.compactedAtTurn !== this.turn) {
          this.state = 'build_context.compacting';
          return;
        }
        return this.stop('model_error');
      case 'xstate.done.actor.compactContext':
        this.compactedAtTurn = this.turn;
        this.near = false;
        this.cutBeforeLastAnswer();
        return this.nextModelCall();
      case 'xstate.error.actor.compactContext':
        this.compactedAtTurn = this.turn;
        this.near = false;
        return this.nextModelCall();
      case 'xstate.done.actor.sessionStartHooks':
        if ((event.output as HookOutcome).context) this.promptBlocks.push('user:text');
        return this.promptHooks();
      case 'xstate.error.actor.sessionStartHooks':
        return this.promptHooks();
      case 'xstate.done.actor.userPromptSubmitHooks': {
        const outcome = event.output as HookOutcome;
        if (outcome.decision === 'block') return this.stop('permission_denied');
        if (outcome.context) this.promptBlocks.push('user:text');
        return this.sendPrompt();
      }
      case 'xstate.error.actor.userPromptSubmitHooks':
        return this.sendPrompt();
      case 'xstate.done.actor.preToolUseHooks':
        return this.preToolUseAnswered(event.output as HookOutcome);
      case 'xstate.error.actor.preToolUseHooks':
        return this.preToolUseAnswered({ decision: null });
      case 'xstate.done.actor.postToolUseHooks':
      case 'xstate.error.actor.postToolUseHooks':
        // The result keeps its flag; a block only adds words to it.
        return this.route();
      case 'xstate.done.actor.stopHooks':
        // A Stop hook sends the model back once; blocking again ends the task (stop_hook_active, issue 39).
        if (this.stopHookActive) return this.stop('final_answer');
        if ((event.output as HookOutcome).decision === 'block') {
          this.stopHookActive = true;
          this.transcript.push(['user:text']);
          return this.nextModelCall();
        }
        return this.stop('final_answer');
      case 'xstate.error.actor.stopHooks':
        return this.stop('final_answer');
      case 'xstate.done.actor.askPermission':
        return this.userDecided(event.output as PermissionDecision);
      case 'xstate.error.actor.askPermission':
        return this.stop('permission_denied');
      case 'xstate.done.actor.subagent':
        // A child's answer is its call's result; a child that stopped (a limit) is an is_error result.
        this.toolCalls++;
        this.result((event.output as EngineOutput).reason !== 'final_answer');
        return this.afterResult();
      case 'xstate.error.actor.subagent':
        this.toolCalls++;
        if (!isRecoverable(toolFailure(event.error).code)) return this.stop('tool_error');
        this.result(true);
        return this.route();
      case 'xstate.done.actor.executeTool':
        this.toolCalls++;
        this.result((event.output as ToolResult).isError);
        return this.afterResult();
      case 'xstate.error.actor.executeTool':
        this.toolCalls++;
        // recovery.ts decides, on the code the tool's failure carries.
        if (!isRecoverable(toolFailure(event.error).code)) return this.stop('tool_error');
        this.result(true);
        return this.route();
      default: {
        // One child of the batch answered: its result waits for the others, in the model's order.
        const child = /^xstate\.(done|error)\.actor\.batch-(\d+)$/.exec(event.type);
        if (!child) throw new Error(`the oracle does not know ${event.type}`);
        return this.batchChildAnswered(Number(child[2]), event, child[1] === 'done');
      }
    }
  }

  /** A result is in: the PostToolUse hooks that match its call, or on. */
  private afterResult(): void {
    if (this.hooks.has('PostToolUse') && hookMatches(this.queue[this.results.length - 1]!.call)) {
      this.state = 'append_tool_result.post_tool_hooks';
      return;
    }
    this.route();
  }

  private batchChildAnswered(index: number, event: PathEvent, done: boolean): void {
    const call = this.queue[this.results.length + index]!.call;
    if (done) {
      const output = event.output as ToolResult | EngineOutput;
      const isError = isSubagentCall(call) ? (output as EngineOutput).reason !== 'final_answer' : (output as ToolResult).isError;
      this.batch[index] = { isError, crashed: false };
    } else {
      this.batch[index] = { isError: true, crashed: !isRecoverable(toolFailure(event.error).code) };
    }
    if (this.batch.some((b) => b === null)) return;
    const outcomes = this.batch as Array<{ isError: boolean; crashed: boolean }>;
    this.toolCalls += outcomes.length;
    this.batch = [];
    for (const outcome of outcomes) this.result(outcome.isError);
    return outcomes.some((o) => o.crashed) ? this.stop('tool_error') : this.route();
  }

  /** After the session is open: the prompt's own hooks, or the prompt goes out. */
  private promptHooks(): void {
    if (this.hooks.has('UserPromptSubmit')) this.state = 'build_context.prompt_hooks';
    else this.sendPrompt();
  }

  private sendPrompt(): void {
    this.transcript.push(this.promptBlocks);
    this.nextModelCall();
  }

  private modelAnswered(response: ModelResponse): void {
    this.turn++;
    this.near = response.usage.input_tokens + response.usage.output_tokens >= CONTEXT_WINDOW * COMPACTION_THRESHOLD;
    const calls = response.content.filter((b): b is ToolUseBlock => b.type === 'tool_use');
    this.transcript.push(
      response.content.map((b) => (b.type === 'tool_use' ? `assistant:tool_use:${(b as ToolUseBlock).id}` : `assistant:${b.type}`)),
    );
    if (calls.length > 0) {
      const truncated = response.truncatedToolUseIds ?? [];
      this.queue = calls.map(({ id, name, input }) => ({ call: { id, name, input }, truncated: truncated.includes(id) }));
      this.results = [];
      return this.route();
    }
    if (response.stopReason === 'pause_turn') return this.nextModelCall();
    const hooked = response.content.some((b) => b.type === 'text' && (b as { text: string }).text === HOOKED_ANSWER);
    if (hooked && this.hooks.has('Stop')) {
      this.state = 'call_model.stop_hooks';
      return;
    }
    this.stop('final_answer');
  }

  /** Claude Code's rules: a block refuses the call (the model is told); allow skips the prompt, ask forces it; a rule's deny stands. */
  private preToolUseAnswered(outcome: HookOutcome): void {
    const rules = this.rulesDecision;
    this.rulesDecision = null;
    // No hook answer stands in for rules that crashed.
    if (!rules) return this.stop('tool_error');
    if (rules.behavior === 'deny' || outcome.decision === null) return this.decided(rules);
    if (outcome.decision === 'block') {
      this.result(true);
      return this.route();
    }
    this.decided({ behavior: outcome.decision, decidedBy: 'hook' });
  }

  /** Where a decision leads: run, ask the person, go back to the model, or stop. */
  private decided(decision: PermissionDecision): void {
    if (decision.behavior === 'allow') {
      this.state = this.runs();
      return;
    }
    if (decision.behavior === 'ask') {
      this.state = 'ask_permission.asking_user';
      return;
    }
    if (!decision.continueWithFeedback) return this.stop('permission_denied');
    this.result(true);
    this.route();
  }

  private userDecided(decision: PermissionDecision): void {
    if (decision.behavior === 'allow') {
      this.state = this.runs();
      return;
    }
    if (decision.behavior === 'deny' && decision.continueWithFeedback) {
      this.result(true);
      return this.route();
    }
    this.stop('permission_denied');
  }

  /** Works through the queue until a call needs an actor, the queue is empty, or a stop. */
  private route(): void {
    while (this.results.length < this.queue.length) {
      if (this.toolCalls >= LIMITS.maxToolCalls) return this.stop('max_tool_calls');
      const { call, truncated } = this.queue[this.results.length]!;
      const valid = truncated ? false : ruleOf(() => validateEcho(call).ok);
      // A rule that throws is a named stop, not a crash and not the model's fault.
      if (valid === null) return this.stop('tool_error');
      if (!valid) {
        this.result(true);
        continue;
      }
      const together = this.runTogether();
      if (together >= 2) {
        this.batch = Array.from({ length: together }, () => null);
        this.state = 'execute_tool.batch';
        return;
      }
      const decision = ruleOf(() => policyFromInput(call));
      if (this.hooks.has('PreToolUse') && hookMatches(call)) {
        this.rulesDecision = decision;
        this.state = 'ask_permission.pre_tool_hooks';
        return;
      }
      if (!decision) return this.stop('tool_error');
      if (decision.behavior === 'allow' || decision.behavior === 'ask') return this.decided(decision);
      if (!decision.continueWithFeedback) return this.stop('permission_denied');
      this.result(true);
    }
    this.transcript.push(this.results);
    this.queue = [];
    this.results = [];
    this.nextModelCall();
  }

  /** How many calls from the next one may run together: read-only, valid, allowed outright, no tool hook, within the budget. */
  private runTogether(): number {
    let n = 0;
    for (const { call, truncated } of this.queue.slice(this.results.length)) {
      if (this.toolCalls + n >= LIMITS.maxToolCalls || truncated || !concurrencySafe(call)) break;
      if (ruleOf(() => validateEcho(call).ok) !== true) break;
      if ((this.hooks.has('PreToolUse') || this.hooks.has('PostToolUse')) && hookMatches(call)) break;
      if (ruleOf(() => policyFromInput(call))?.behavior !== 'allow') break;
      n++;
    }
    return n;
  }

  /** Where an allowed call runs: a task call as a child chart, any other as one tool. */
  private runs(): EngineStatePath {
    return isSubagentCall(this.queue[this.results.length]!.call) ? 'execute_tool.subagent' : 'execute_tool.running';
  }

  private nextModelCall(): void {
    if (this.turn >= LIMITS.maxTurns) return this.stop('max_turns');
    this.state = this.near && this.compactedAtTurn !== this.turn ? 'build_context.compacting' : 'call_model.requesting';
  }

  /** A compaction keeps the last answer and what follows, after one summary message. */
  private cutBeforeLastAnswer(): void {
    let last = this.transcript.length - 1;
    while (last >= 1 && !this.transcript[last]!.some((b) => b.startsWith('assistant:'))) last--;
    if (last >= 1) this.transcript = [['user:text'], ...this.transcript.slice(last)];
  }

  private result(isError: boolean): void {
    const call = this.queue[this.results.length]!.call;
    this.results.push(`user:tool_result:${call.id}:${isError ? 'err' : 'ok'}`);
  }

  /** A stop closes the open queue: every call without a result gets an is_error one. */
  private stop(reason: StopReason): void {
    if (this.queue.length > 0) {
      while (this.results.length < this.queue.length) this.result(true);
      this.transcript.push(this.results);
      this.queue = [];
    }
    this.state = 'done';
    this.reason = reason;
  }
}

/** A rule's answer, or null when it threw. */
function ruleOf<T>(rule: () => T): T | null {
  try {
    return rule();
  } catch {
    return null;
  }
}
