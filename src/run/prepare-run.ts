import path from 'node:path';
import type { EvidenceListener } from '../sessions/session-writer.js';
import type { StepJournal } from '../engine/step-journal.js';
import type { AgentEvent, QueryResult } from '../engine/events.js';
import { query } from '../engine/query.js';
import { loadTaskContext } from '../context/task-context.js';
import { isDiskFailure, SessionWriteError } from '../sessions/disk-failure.js';
import type { PermissionPolicy } from '../permissions/types.js';
import { sessionDir, transcriptPath } from '../sessions/layout.js';
import { runEventHooks } from '../hooks/run-event-hooks.js';
import { visible } from '../terminal/visible.js';
import { partialAnswer } from '../engine/partial-answer.js';
import { resumedLine } from '../sessions/interruption.js';
import { openSessionForRun, type RunSession } from '../sessions/open-for-run.js';
import { openSessionWriter } from '../sessions/session-writer.js';
import { secretsFrom, startRunInspector, type RunInspector } from './run-inspector.js';
import { rememberSecrets } from '../sessions/secret-fingerprints.js';
import { fairTurn } from '../system/fair-turns.js';
import type { Renderer } from '../terminal/renderer.js';
import type { RunConfig } from './run-config.js';
import type { McpManager } from '../mcp/manager.js';
import { ToolRegistry } from '../tools/registry.js';
import { packageVersion } from './version.js';
import { forkChosenSession } from '../rewind/fork.js';
import { recoverRewind } from '../rewind/journal.js';

export interface TaskRequest {
  prompt: string;
  permissions: PermissionPolicy;
  signal: AbortSignal;
  renderer: Renderer;
  /** Sees every event too (the terminal UI's /inspect attaches the inspector here). */
  observe?: (event: AgentEvent) => void;
  /** Sees every evidence line as written (the inspector's `LiveFeed.evidence`). */
  onEvidence?: EvidenceListener;
  /** Where model rounds and tool calls run (a durable task's journal, src/restate/); default: at once. */
  journal?: StepJournal;
}

/** A run ready for tasks: its session is open (and locked), its inspector serving if asked for. */
export interface PreparedRun {
  readonly config: RunConfig;
  readonly session: RunSession;
  readonly inspector: RunInspector | null;
  /** The run's MCP servers (starting or started), null without any: another run may share them (`io.sharedMcp`). */
  readonly mcp: Promise<McpManager | null> | null;
  /** The tools the next task gets: the built-ins and custom tools, and the MCP servers' once they are up (what /context counts). */
  tools(): ToolRegistry;
  /** Runs one task in the session through the engine, rendering as it goes; resolves with the result. */
  runTask(task: TaskRequest): Promise<QueryResult>;
  /** Releases the session, stops the inspector and the MCP servers (their whole process trees). */
  close(): Promise<void>;
}

/**
 * The one way a run starts, for print mode, interactive mode and the demo: open the session (new,
 * --resume or --continue; its warnings go to stderr), start the inspector if asked, and give back a
 * task runner that records every task to the session and feeds the inspector.
 * @example const run = await prepareRun(config, { stderr: process.stderr }); await run.runTask({ prompt, ... });
 */
export async function prepareRun(
  config: RunConfig,
  /** `env`: whose key the inspector redacts (the library's `env` option); default process.env. */
  io: {
    stderr: NodeJS.WritableStream;
    env?: NodeJS.ProcessEnv;
    /** Servers another run started (the terminal UI's /clear and /resume): used, neither started again nor stopped by close(). */
    sharedMcp?: Promise<McpManager | null> | null;
    /** The inspector's token (a durable task keeps one over its attempts); default a new one. */
    inspectorToken?: string;
  },
): Promise<PreparedRun> {
  const { fork, ...choice } = config.session;
  // --fork-session: the task runs in a new session copied from the chosen one, which stays as it was.
  const forked = fork ? forkChosenSession({ home: config.home, workspace: config.workspace, ...choice, at: fork.at }) : null;
  const session = openSessionForRun({
    home: config.home,
    workspace: config.workspace,
    modelId: config.modelId,
    ...(forked ? { resume: forked.sessionId, continue: false } : choice),
    recover: recoverRewind,
  });
  if (forked)
    io.stderr.write(
      `xagent: forked session ${forked.from} as ${forked.sessionId} (${forked.messages} messages); ${forked.from} is unchanged\n`,
    );
  for (const warning of [...config.warnings, ...session.warnings]) io.stderr.write(`xagent: warning: ${warning}\n`);
  if (!session.isNew) io.stderr.write(`${visible(resumedLine(session.sessionId, session.messages))}\n`);
  let inspector: RunInspector | null = null;
  try {
    if (config.inspectPort !== null) {
      inspector = await startRunInspector({
        config,
        sessionId: session.sessionId,
        port: config.inspectPort,
        stderr: io.stderr,
        env: io.env,
        ...(io.inspectorToken ? { token: io.inspectorToken } : {}),
      });
    }
  } catch (error) {
    session.release();
    throw error;
  }
  // Started now, so the servers boot while the model client loads; the first task waits for them.
  const ownsMcp = io.sharedMcp === undefined;
  const mcp = ownsMcp ? startMcp(config, io.stderr) : (io.sharedMcp ?? null);
  let tools: ToolRegistry | undefined;
  const toolsFor = async (signal: AbortSignal): Promise<ToolRegistry> => {
    const manager = await mcp;
    if (tools || !manager) return tools ?? config.tools;
    await manager.ready(signal);
    if (signal.aborted) return config.tools;
    const builtins = config.tools.names().flatMap((name) => config.tools.get(name) ?? []);
    tools = new ToolRegistry([...builtins, ...manager.tools()]);
    return tools;
  };

  // SessionStart belongs to the session, not to each task: the chart runs it on the run's first task.
  let sessionOpened = false;
  const runTask = async ({ prompt, permissions, signal, renderer, observe, onEvidence, journal }: TaskRequest): Promise<QueryResult> => {
    const taskTools = await toolsFor(signal);
    const sessionStart = sessionOpened ? null : session.isNew ? 'startup' : 'resume';
    sessionOpened = true;
    // Started first, so git runs while meta.json is written and the model client loads; query() awaits it.
    // --append-system-prompt goes after the built prompt (or after --system-prompt), as in Claude Code.
    const append = config.appendSystemPrompt ? `\n\n${config.appendSystemPrompt}` : '';
    const context =
      config.systemPrompt === undefined
        ? loadTaskContext({ workspace: config.workspace, home: config.home, outsideImports: config.outsideImports }).then((built) => ({
            ...built,
            system: `${built.system}${append}`,
          }))
        : { system: `${config.systemPrompt}${append}`, instructions: [] };
    await session.startTask(prompt).catch((error: unknown) => {
      throw isDiskFailure(error)
        ? new SessionWriteError(error.path ?? path.join(sessionDir(config.home, session.sessionId), 'meta.json'), error, session.sessionId)
        : error;
    });
    // Many tasks' meta.json writes end together: each opens its session files in a turn of its own.
    const turn = fairTurn();
    if (turn) await turn;
    // A disk that refuses the session's lines stops the task (not a lost transcript): the run ends with that error.
    let writeFailure: SessionWriteError | null = null;
    const stop = new AbortController();
    const stopWith = () => stop.abort(signal.reason);
    signal.addEventListener('abort', stopWith, { once: true });
    if (signal.aborted) stopWith();
    // The session remembers its secrets by fingerprint, so a later export without them in the environment still removes them.
    // Written while the task runs; on disk before the task's result is handed out.
    const remembering = rememberSecrets(sessionDir(config.home, session.sessionId), secretsFrom(process.env));
    const sink = openSessionWriter(sessionDir(config.home, session.sessionId), session.sessionId, {
      onFailure: (failure) => {
        writeFailure = failure;
        stop.abort(failure);
      },
    });
    const partial = partialAnswer();
    const inspect = inspector?.observerFor(prompt);
    const events = query(prompt, {
      model: config.model,
      tools: taskTools,
      permissions,
      workspace: config.workspace,
      ...config.limits,
      prices: config.modelPrices,
      contextWindow: config.contextWindow,
      context,
      signal: stop.signal,
      sessionId: session.sessionId,
      session: sink,
      messages: session.messages,
      hooks: config.hooks,
      agents: config.agents,
      ...(config.modelFor ? { modelFor: config.modelFor } : {}),
      sessionStart,
      ...(journal ? { journal } : {}),
      ...(config.sandbox && config.sandboxSettings.hooks ? { hookSandbox: config.sandbox } : {}),
      commandEnv: config.env,
      observe: (event) => {
        partial.onEvent(event);
        inspect?.(event);
        observe?.(event);
      },
      ...(inspect || onEvidence
        ? {
            onEvidence: (record) => {
              inspect?.evidence(record);
              onEvidence?.(record);
            },
          }
        : {}),
    });
    try {
      for await (const event of events) {
        if (event.type === 'result') {
          // Nothing more is written to a disk that refused: the session resumes from its last whole line.
          if (writeFailure) throw writeFailure;
          // The partial answer and a marker go into the transcript, so the next request (even after --continue) says so.
          if (event.reason === 'user_abort') session.interrupted(partial.text());
          renderer.finish(event);
          session.endTask(event);
          await remembering;
          return event;
        }
        renderer.onEvent(event);
      }
    } catch (error) {
      // The end-of-task writes (meta.json, the interrupt marker) meet the same full disk.
      if (isDiskFailure(error))
        throw new SessionWriteError(
          error.path ?? path.join(sessionDir(config.home, session.sessionId), 'meta.json'),
          error,
          session.sessionId,
        );
      throw error;
    } finally {
      signal.removeEventListener('abort', stopWith);
    }
    throw new Error('the engine ended without a result');
  };

  return {
    config,
    session,
    inspector,
    mcp,
    tools: () => tools ?? config.tools,
    runTask,
    async close() {
      await runSessionEndHooks(config, session, io.stderr);
      await session.settled();
      session.release();
      await Promise.all([inspector?.server.close(), ownsMcp ? mcp?.then((manager) => manager?.close()) : undefined]);
    },
  };
}

/**
 * Starts the run's MCP servers, if any are configured. The MCP client is a chunk of its own,
 * loaded here and only here: runs without servers, `--version` and `--help` never load it.
 */
function startMcp(config: RunConfig, stderr: NodeJS.WritableStream): Promise<McpManager | null> | null {
  const servers = config.mcpServers ?? [];
  if (servers.length === 0) return null;
  const timeouts = config.mcpTimeouts ?? { startupMs: 30_000, toolMs: 120_000 };
  const sandbox = config.sandbox && config.sandboxSettings.mcpServers ? config.sandbox : undefined;
  return import('../mcp/manager.js').then(
    ({ startMcpServers }) =>
      startMcpServers(servers, {
        cwd: config.workspace,
        clientVersion: packageVersion(),
        startupTimeoutMs: timeouts.startupMs,
        toolTimeoutMs: timeouts.toolMs,
        env: config.env,
        ...(sandbox ? { sandbox } : {}),
        warn: (line) => stderr.write(`${visible(line)}\n`),
      }),
    (error: unknown) => {
      stderr.write(`xagent: MCP servers not started: ${error instanceof Error ? error.message : String(error)}\n`);
      return null;
    },
  );
}

/**
 * Claude Code's SessionEnd hooks, where the run ends (`reason: "other"`, as Claude Code says
 * for an end that is neither /clear nor a logout): they cannot block; a failure is one line on stderr.
 */
async function runSessionEndHooks(
  config: RunConfig,
  session: { sessionId: string; dir: string },
  stderr: NodeJS.WritableStream,
): Promise<void> {
  if (!config.hooks.some((hook) => hook.event === 'SessionEnd')) return;
  await runEventHooks({
    hooks: config.hooks,
    event: 'SessionEnd',
    fields: { reason: 'other' },
    session: {
      sessionId: session.sessionId,
      transcriptPath: transcriptPath(session.dir),
      cwd: config.workspace,
      permissionMode: config.permissionMode,
      env: config.env,
    },
    signal: new AbortController().signal,
    ...(config.sandbox && config.sandboxSettings.hooks ? { sandbox: config.sandbox } : {}),
    report: (report) => {
      if (report.outcome === 'error' || report.outcome === 'timeout') {
        stderr.write(`xagent: hook SessionEnd ${report.command}: ${report.outcome}${report.message ? `: ${report.message}` : ''}\n`);
      }
    },
  });
}
