/** The Restate server and workers of the durable-task tests: bench/restate-server.ts, with the tests' CLI. */
import { startWorker as start, type Worker } from '../../bench/restate-server.js';
import { CLI } from './run-cli.js';

export { freePort, restateBinary, startRestateServer, until, type RestateServer, type Worker } from '../../bench/restate-server.js';

export function startWorker(options: { port: number; admin: string; env: Record<string, string>; args?: string[] }): Promise<Worker> {
  return start({ cli: CLI, ...options });
}
