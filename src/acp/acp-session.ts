import { RequestError, type AgentContext, type ContentBlock, type PromptResponse, type SessionUpdate } from '@agentclientprotocol/sdk';
import { stopMessage } from '../engine/stop-message.js';
import type { PermissionPrompt } from '../permissions/types.js';
import type { PermissionRule } from '../permissions/rules.js';
import type { PermissionMode, PermissionPolicy } from '../permissions/types.js';
import type { PreparedRun } from '../run/prepare-run.js';
import { policyFor } from '../run/run-config.js';
import type { SessionPermissionPolicy } from '../permissions/policy.js';
import type { EditorWrites } from './editor-write-files.js';
import { editorPermissionPrompt } from './permission-prompt.js';
import { PromptContentError, promptText } from './prompt-text.js';
import { sessionUpdates } from './session-updates.js';
import { sessionModeState } from './session-modes.js';
import { acpStopReason } from './stop-reason.js';

/** A renderer that draws nothing: the session's updates come from `observe`, as the engine goes. */
const SILENT = { onEvent() {}, finish() {} };

/**
 * One ACP session: a prepared run (its recorded session, MCP servers, hooks, inspector) that the
 * editor prompts one task at a time, with the permission mode the editor picked.
 */
export class AcpSession {
  private mode: PermissionMode;
  /** Rules "always" and "reject always" added in this session: they outlive a mode change. */
  private readonly added: PermissionRule[] = [];
  private policy: SessionPermissionPolicy;
  private running: { controller: AbortController; finished: Promise<unknown> } | null = null;
  private readonly prompt: PermissionPrompt;

  constructor(
    readonly run: PreparedRun,
    private readonly client: AgentContext,
    private readonly note: (line: string) => void,
    /** Said in the editor before the first answer (project files left out until trusted). */
    private notice: string | null = null,
    /** The writes that went to the editor's buffers: their diffs (the disk does not show them). */
    private readonly editorWrites?: EditorWrites,
  ) {
    this.mode = run.config.permissionMode;
    const ask = editorPermissionPrompt({
      client,
      sessionId: this.id,
      workspace: run.config.workspace,
      note,
      // As the terminal UI's option: accept edits from now on, and the editor's mode picker says so.
      acceptEdits: () => {
        this.setMode('acceptEdits');
        void this.send({ sessionUpdate: 'current_mode_update', currentModeId: 'acceptEdits' });
      },
    });
    this.prompt = async (request) => {
      const outcome = await ask(request);
      this.added.push(...outcome.savedRules);
      return outcome;
    };
    this.policy = this.makePolicy();
  }

  get id(): string {
    return this.run.session.sessionId;
  }

  modes() {
    return sessionModeState(this.mode);
  }

  /** Takes effect at once, in a running task too: the engine asks the live policy for each call. */
  setMode(mode: PermissionMode): void {
    this.mode = mode;
    this.policy = this.makePolicy();
  }

  private makePolicy(): SessionPermissionPolicy {
    const { config } = this.run;
    return policyFor({ ...config, permissionMode: this.mode, rules: [...config.rules, ...this.added] }, this.prompt);
  }

  /** The policy the engine holds for a task: it reads the session's current one on every call. */
  private livePolicy(): PermissionPolicy {
    const session = this;
    return {
      get mode() {
        return session.policy.mode;
      },
      decide: (call, tool) => session.policy.decide(call, tool),
      ask: (call, pending, signal) => session.policy.ask(call, pending, signal),
    };
  }

  send(update: SessionUpdate): Promise<void> {
    return this.client.notify('session/update', { sessionId: this.id, update }).catch((error: unknown) => {
      this.note(`xagent: a session/update was not sent: ${(error as Error).message}`);
    });
  }

  /**
   * Runs one task; resolves when every update of it has been written, with the ACP stop reason.
   * @throws RequestError (invalid params) for content the agent does not accept, (invalid request) while another prompt runs
   */
  async runPrompt(blocks: readonly ContentBlock[]): Promise<PromptResponse> {
    if (this.running) throw RequestError.invalidRequest(undefined, 'a prompt is already running in this session: cancel it first');
    let text: string;
    try {
      text = promptText(blocks, this.run.config.workspace);
    } catch (error) {
      if (error instanceof PromptContentError) throw RequestError.invalidParams(undefined, error.message);
      throw error;
    }
    const controller = new AbortController();
    // Notifications are written in the order they are sent; awaiting the last one flushes them all.
    let last: Promise<void> = Promise.resolve();
    const send = (update: SessionUpdate) => {
      last = this.send(update);
    };
    if (this.notice) send({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `${this.notice}\n\n` } });
    this.notice = null;
    const updates = sessionUpdates(this.run.config.workspace, send, this.editorWrites);
    const finished = this.run.runTask({
      prompt: text,
      permissions: this.livePolicy(),
      signal: controller.signal,
      renderer: SILENT,
      observe: updates.onEvent,
    });
    this.running = { controller, finished };
    try {
      const result = await finished;
      // Why the task stopped, where the answer does not say it (a refused tool, a budget, a failure).
      const why = result.reason === 'final_answer' || result.reason === 'user_abort' ? '' : stopMessage(result, this.run.config.limits);
      if (why) send({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `\n\n${why}` } });
      await last;
      return { stopReason: acpStopReason(result) };
    } finally {
      this.running = null;
    }
  }

  /** `session/cancel`: the running task stops at once (its tool's process tree too); its prompt answers `cancelled`. */
  cancel(): void {
    this.running?.controller.abort();
  }

  /** Stops what runs, waits for it (the transcript stays valid), then lets the session go. */
  async close(): Promise<void> {
    const running = this.running;
    if (running) {
      running.controller.abort();
      await running.finished.catch(() => undefined);
    }
    await this.run.close();
  }
}
