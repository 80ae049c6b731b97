import path from 'node:path';
import type { Command } from 'commander';
import { listen, loadInspector, secretsFrom, type RunInspector } from '../run/run-inspector.js';
import { secretsInSession } from '../sessions/secret-fingerprints.js';
import { UsageError } from './exit-codes.js';
import { parseInspectPort } from '../run/parse-options.js';
import { untilStopSignal } from '../run/signals.js';
import { xagentHome } from '../sessions/layout.js';

/** After a -p task: say so, keep serving until Ctrl-C, then close. */
export async function holdInspector(inspector: RunInspector, stderr: NodeJS.WritableStream): Promise<void> {
  stderr.write(`Inspector still serving at ${inspector.server.url}\nPress Ctrl-C to exit.\n`);
  await untilStopSignal();
  await inspector.server.close();
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
        const trace = resolveSessionTarget(target, xagentHome(process.env));
        // The run's secrets, found by the fingerprints it left: this shell may not have them.
        history = loadSessionHistory(trace, { secrets: [...secretsFrom(process.env), ...secretsInSession(path.dirname(trace))] });
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
