import type { Command } from 'commander';
import type { AgentEvent } from '../engine/events.js';
import type { InspectorServer } from '../inspector/server.js';
import { UsageError } from './exit-codes.js';
import { parseInspectPort } from './parse-options.js';
import { untilStopSignal } from './signals.js';
import { xagentHome } from '../sessions/layout.js';
import type { RunConfig } from './run-config.js';

/** Values that must never reach the page even if a tool prints them. */
const secretsFrom = (env: NodeJS.ProcessEnv) => [env.ANTHROPIC_API_KEY, env.ANTHROPIC_AUTH_TOKEN];

export interface RunInspector {
  /** query()'s `observe` for one task: feeds the page. */
  observerFor(prompt: string): (event: AgentEvent) => void;
  server: InspectorServer;
  /** After a -p task: say so, keep serving until Ctrl-C, then close. */
  holdUntilInterrupted(): Promise<void>;
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
}): Promise<RunInspector> {
  const { config, stderr } = options;
  const { createHistory, liveFeed, startInspectorServer, inspectorChart } = await loadInspector();
  const secrets = secretsFrom(options.env ?? process.env);
  const history = createHistory({ secrets });
  const server = await listen(options.port, () => startInspectorServer({ port: options.port, history, chart: inspectorChart }));
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
        secrets,
      }),
    server,
    async holdUntilInterrupted() {
      stderr.write(`Inspector still serving at ${server.url}\nPress Ctrl-C to exit.\n`);
      await untilStopSignal();
      await server.close();
    },
  };
}

/** The inspector is only loaded by runs that use it: a plain task never compiles the server. */
async function loadInspector() {
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

async function listen(port: number, start: () => Promise<InspectorServer>): Promise<InspectorServer> {
  try {
    return await start();
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'EADDRINUSE') throw new UsageError(`--inspect: port ${port} on 127.0.0.1 is in use; pick another or use 0`);
    if (code === 'EACCES') throw new UsageError(`--inspect: not allowed to listen on port ${port}`);
    throw error;
  }
}

/**
 * `xagent inspect <session-id | trace.jsonl>`: serves a recorded session for replay until Ctrl-C.
 * No model and no key are involved.
 * @example registerInspectCommand(program, (code) => (exitCode = code));
 */
export function registerInspectCommand(program: Command, setExit: (code: number) => void): void {
  program
    .command('inspect <target>')
    .description('open a recorded session (id, session directory or trace.jsonl) in the inspector')
    .option('--port <port>', 'port on 127.0.0.1 (default: a free one)', '0')
    .option('--export <file>', 'write the run as one self-contained HTML file (opens from disk, no server) and exit')
    .action(async (target: string, raw: { port: string; export?: string }) => {
      const port = parseInspectPort(raw.port);
      const { loadSessionHistory, ReplayError, resolveSessionTarget } = await import('../inspector/replay.js');
      const { startInspectorServer, inspectorChart } = await loadInspector();
      let history;
      try {
        history = loadSessionHistory(resolveSessionTarget(target, xagentHome(process.env)), { secrets: secretsFrom(process.env) });
      } catch (error) {
        if (error instanceof ReplayError) throw new UsageError(error.message);
        throw error;
      }
      if (raw.export !== undefined) {
        const { exportRunHtml, ExportError } = await import('../inspector/export-run.js');
        try {
          const written = await exportRunHtml(history, raw.export);
          process.stderr.write(
            `Wrote ${written.file} (${Math.ceil(written.bytes / 1024)} KB, ${history.records.length} records): open it in a browser.\n`,
          );
        } catch (error) {
          if (error instanceof ExportError) throw new UsageError(error.message);
          throw error;
        }
        setExit(0);
        return;
      }
      const server = await listen(port, () => startInspectorServer({ port, history, chart: inspectorChart }));
      process.stderr.write(`Inspector: ${server.url}\nReplaying ${target} (${history.records.length} records). Press Ctrl-C to exit.\n`);
      await untilStopSignal();
      await server.close();
      setExit(0);
    });
}
