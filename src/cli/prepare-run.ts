import type { AgentEvent, QueryResult } from '../engine/events.js';
import { query } from '../engine/query.js';
import type { PermissionPolicy } from '../permissions/types.js';
import { sessionDir } from '../sessions/layout.js';
import { visible } from '../permissions/request-view.js';
import { partialAnswer, recordInterruption, resumedLine } from '../sessions/interruption.js';
import { openSessionForRun, type RunSession } from '../sessions/open-for-run.js';
import { openSessionWriter } from '../sessions/session-writer.js';
import { startRunInspector, type RunInspector } from './inspect-command.js';
import type { Renderer } from './output/renderer.js';
import type { RunConfig } from './run-config.js';

export interface TaskRequest {
  prompt: string;
  permissions: PermissionPolicy;
  signal: AbortSignal;
  renderer: Renderer;
  /** Sees every event too (the terminal UI's /inspect attaches the inspector here). */
  observe?: (event: AgentEvent) => void;
}

/** A run ready for tasks: its session is open (and locked), its inspector serving if asked for. */
export interface PreparedRun {
  readonly config: RunConfig;
  readonly session: RunSession;
  readonly inspector: RunInspector | null;
  /** Runs one task in the session through the engine, rendering as it goes; resolves with the result. */
  runTask(task: TaskRequest): Promise<QueryResult>;
  /** Releases the session and stops the inspector. */
  close(): Promise<void>;
}

/**
 * The one way a run starts, for print mode, interactive mode and the demo: open the session (new,
 * --resume or --continue; its warnings go to stderr), start the inspector if asked, and give back a
 * task runner that records every task to the session and feeds the inspector.
 * @example const run = await prepareRun(config, { stderr: process.stderr }); await run.runTask({ prompt, ... });
 */
export async function prepareRun(config: RunConfig, io: { stderr: NodeJS.WritableStream }): Promise<PreparedRun> {
  const session = openSessionForRun({ home: config.home, workspace: config.workspace, modelId: config.modelId, ...config.session });
  for (const warning of session.warnings) io.stderr.write(`xagent: warning: ${warning}\n`);
  if (!session.isNew) io.stderr.write(`${visible(resumedLine(session.sessionId, session.messages))}\n`);
  let inspector: RunInspector | null = null;
  try {
    if (config.inspectPort !== null) {
      inspector = await startRunInspector({ config, sessionId: session.sessionId, port: config.inspectPort, stderr: io.stderr });
    }
  } catch (error) {
    session.release();
    throw error;
  }

  const runTask = async ({ prompt, permissions, signal, renderer, observe }: TaskRequest): Promise<QueryResult> => {
    session.startTask(prompt);
    const partial = partialAnswer();
    const inspect = inspector?.observerFor(prompt);
    const events = query(prompt, {
      model: config.model,
      tools: config.tools,
      permissions,
      workspace: config.workspace,
      ...config.limits,
      contextWindow: config.contextWindow,
      home: config.home,
      signal,
      sessionId: session.sessionId,
      session: openSessionWriter(sessionDir(config.home, session.sessionId), session.sessionId),
      messages: session.messages,
      hooks: config.hooks,
      ...(config.sandbox && config.sandboxSettings.hooks ? { hookSandbox: config.sandbox } : {}),
      observe: (event) => {
        partial.onEvent(event);
        inspect?.(event);
        observe?.(event);
      },
    });
    for await (const event of events) {
      if (event.type === 'result') {
        // The partial answer and a marker go into the transcript, so the next request (even after --continue) says so.
        if (event.reason === 'user_abort') recordInterruption({ dir: session.dir, messages: session.messages, partial: partial.text() });
        renderer.finish(event);
        session.endTask(event);
        return event;
      }
      renderer.onEvent(event);
    }
    throw new Error('the engine ended without a result');
  };

  return {
    config,
    session,
    inspector,
    runTask,
    async close() {
      session.release();
      await inspector?.server.close();
    },
  };
}
