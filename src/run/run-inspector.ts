import { withheldCredentials } from './agent-credentials.js';
import type { LiveFeed } from '../inspector/live-feed.js';
import type { InspectorServer } from '../inspector/server.js';
import type { RunConfig } from './run-config.js';
import { UsageError } from '../errors/xagent-error.js';
import { userMessages } from '../rewind/user-messages.js';
import { sessionDir } from '../sessions/layout.js';

/** Values that must never reach the page even if a tool prints them. */
/** The secrets the inspector removes by value: the agent's credentials, also once withheld from the environment. */
export const secretsFrom = (env: NodeJS.ProcessEnv) => [env.ANTHROPIC_API_KEY, env.ANTHROPIC_AUTH_TOKEN, ...withheldCredentials()];

export interface RunInspector {
  /** query()'s `observe` for one task, with its `evidence` listener (`onEvidence`): feeds the page. */
  observerFor(prompt: string): LiveFeed;
  server: InspectorServer;
}

/**
 * Starts the live inspector for a run and prints its URL to stderr before the first task begins.
 * @example const inspector = await startRunInspector({ config, sessionId, port: 0, stderr: process.stderr });
 */
export async function startRunInspector(options: {
  config: RunConfig;
  sessionId: string;
  port: number;
  stderr: NodeJS.WritableStream;
  env?: NodeJS.ProcessEnv;
  /** The page's token, when the caller chose it (a durable task's, the same on every attempt). */
  token?: string;
}): Promise<RunInspector> {
  const { config, stderr } = options;
  const { createHistory, liveFeed, startInspectorServer, inspectorChart } = await loadInspector();
  const secrets = secretsFrom(options.env ?? process.env);
  const history = createHistory({ secrets });
  const server = await listen(options.port, () =>
    startInspectorServer({ port: options.port, history, chart: inspectorChart, ...(options.token ? { token: options.token } : {}) }),
  );
  stderr.write(`Inspector: ${server.url}\n`);
  return {
    // Each task starts with its own meta record: the page's boundary between tasks.
    observerFor: (prompt) =>
      liveFeed(history, {
        sessionId: options.sessionId,
        model: config.modelLabel,
        limits: config.limits,
        workspace: config.workspace,
        prompt,
        // Read when the task starts, before its prompt is in the transcript: it is the next message.
        message: userMessages(sessionDir(config.home, options.sessionId)).length + 1,
        secrets,
      }),
    server,
  };
}

/** The inspector is only loaded by runs that use it: a plain task never compiles the server. */
export async function loadInspector() {
  const [chart, history, feed, server] = await Promise.all([
    import('../inspector/chart.js'),
    import('../inspector/history.js'),
    import('../inspector/live-feed.js'),
    import('../inspector/server.js'),
  ]);
  return {
    inspectorChart: chart.inspectorChart,
    createHistory: history.createHistory,
    liveFeed: feed.liveFeed,
    startInspectorServer: server.startInspectorServer,
  };
}

/** Starts a server on `port`, a port in use or refused becoming a UsageError. */
export async function listen(port: number, start: () => Promise<InspectorServer>): Promise<InspectorServer> {
  try {
    return await start();
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'EADDRINUSE') throw new UsageError(`--inspect: port ${port} on 127.0.0.1 is in use; pick another or use 0`);
    if (code === 'EACCES') throw new UsageError(`--inspect: not allowed to listen on port ${port}`);
    throw error;
  }
}
