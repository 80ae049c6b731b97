import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import * as restate from '@restatedev/restate-sdk';
import { withholdAgentCredentials } from '../run/agent-credentials.js';
import { armGroupWatchdog } from '../system/group-watchdog.js';
import { tagThisRun } from '../system/process-group.js';
import { registerDeployment } from './admin-client.js';
import type { SpecOptIn } from './spec-gate.js';
import { taskWorkflow } from './task-workflow.js';

export interface WorkerOptions {
  /** 0 picks a free port. */
  port: number;
  /** The interface to listen on; 127.0.0.1 unless the server runs on another machine. */
  host: string;
  /** The address the server reaches this worker at; default http://<host>:<port>. */
  advertise?: string;
  admin: string;
  env: NodeJS.ProcessEnv;
  stderr: NodeJS.WritableStream;
  /** Resolves when the worker should stop (SIGINT, SIGTERM). */
  stopped: Promise<void>;
  /** Restate request-identity public keys (`publickeyv1_...`): with any, a request not signed by the server is refused (401). */
  identityKeys: string[];
  /** What a task spec may turn on (`--accept-from-spec`). */
  acceptFromSpec: ReadonlySet<SpecOptIn>;
}

/**
 * `xagent serve --restate`: a Restate service endpoint (HTTP/2) that runs xagent tasks, registered
 * with the admin API. Several workers, on one machine or many, register with one server or
 * cluster. Resolves with the exit code once stopped: the tasks it ran go on at their next attempt
 * (Restate retries them against the same address, where a replacement may listen).
 */
export async function serveWorker(options: WorkerOptions): Promise<number> {
  // The tasks' model clients read the key from this copy; bash, hooks and MCP servers never see it.
  const env = { ...options.env };
  withholdAgentCredentials(process.env);
  tagThisRun();
  // A command dies with the worker that started it, even on kill -9: a retried step never runs beside the dead attempt's copy.
  armGroupWatchdog();
  const handler = restate.createEndpointHandler({
    services: [taskWorkflow({ env, stderr: options.stderr, acceptFromSpec: options.acceptFromSpec })],
    ...(options.identityKeys.length > 0 ? { identityKeys: options.identityKeys } : {}),
    // The SDK's per-invocation lines would drown the worker's own; warnings and errors still show.
    logger: (params, message, ...rest) => {
      if (params.level === 'error' || params.level === 'warn')
        options.stderr.write(`xagent worker: ${[message, ...rest].map(String).join(' ')}\n`);
    },
  });
  const server = http2.createServer(handler);
  const sessions = new Set<http2.ServerHttp2Session>();
  server.on('session', (session) => {
    sessions.add(session);
    session.on('close', () => sessions.delete(session));
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port, options.host, () => resolve());
    });
  } catch (error) {
    options.stderr.write(`xagent: the worker cannot listen on ${options.host}:${options.port}: ${(error as Error).message}\n`);
    return 1;
  }
  const { port } = server.address() as AddressInfo;
  if (options.identityKeys.length === 0 && !isLoopback(options.host))
    options.stderr.write(
      `xagent: warning: the worker listens on ${options.host} without --identity-key: whoever reaches it can run tasks; ` +
        'give the server a signing key and the worker its public key (README: "Durable tasks you can deploy")\n',
    );
  const uri = options.advertise ?? `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${port}`;
  try {
    const deployment = await registerDeployment(options.admin, uri);
    options.stderr.write(`xagent: worker listening at ${uri}, registered with ${options.admin} (deployment ${deployment})\n`);
  } catch (error) {
    server.close();
    throw error;
  }
  await options.stopped;
  options.stderr.write('xagent: worker stopping; its running tasks go on at their next attempt\n');
  // Open HTTP/2 sessions (one per server connection) would keep close() waiting: end them.
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    for (const session of sessions) session.destroy();
  });
  return 0;
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\./.test(host);
}
