import { Readable } from 'node:stream';
import { ndJsonStream } from '@agentclientprotocol/sdk';
import type { RunFlags } from '../run/add-run-flags.js';
import { onStopSignal } from '../run/signals.js';
import { withholdAgentCredentials } from '../run/agent-credentials.js';
import { createAcpAgent } from './acp-agent.js';

/**
 * `xagent acp`: serves the Agent Client Protocol on stdin/stdout until the client closes stdin
 * (or a SIGINT/SIGTERM), then stops what runs, closes every session and resolves with 0.
 * stdout carries protocol messages and nothing else: anything else that writes to process.stdout
 * (a stray log line) goes to stderr, where the editor shows agent logs.
 */
export async function serveAcp(flags: RunFlags): Promise<number> {
  const stdout = process.stdout;
  const writeProtocol = stdout.write.bind(stdout) as (chunk: Uint8Array, callback: (error?: Error | null) => void) => boolean;
  stdout.write = ((...args: Parameters<typeof process.stderr.write>) => process.stderr.write(...args)) as typeof stdout.write;
  const output = new WritableStream<Uint8Array>({
    write: (chunk) => new Promise<void>((resolve, reject) => writeProtocol(chunk, (error) => (error ? reject(error) : resolve()))),
  });
  const input = Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>;
  // Each session's model client reads the key from this copy; what the runs start (bash, hooks, MCP servers) never sees it.
  const env = { ...process.env };
  withholdAgentCredentials(process.env);
  const { app, closeAll } = createAcpAgent({ flags, env, stderr: process.stderr });
  const connection = app.connect(ndJsonStream(output, input));
  const uninstall = onStopSignal(() => connection.close());
  try {
    await connection.closed;
  } finally {
    uninstall();
    await closeAll();
  }
  return 0;
}
