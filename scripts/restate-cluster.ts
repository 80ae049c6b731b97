/**
 * A Restate cluster on one machine, for durable tasks that survive the loss of a server node:
 * `--nodes N` (default 3) restate-server processes, every one with every role (metadata server,
 * log server, worker, admin, ingress), a replicated metadata store and a replicated log, each
 * record and each partition kept on two nodes (replication 2): one node may die and every task
 * goes on. Every port is on 127.0.0.1. The nodes run detached, their data and logs under
 * `--base-dir`; the script prints one JSON line and exits:
 * `{"ingress", "admin", "nodes": [{"name", "pid", "ingress", "admin", "node"}], "identityKey"?}`.
 * `--stop --base-dir <dir>` stops them (SIGTERM, then SIGKILL); starting again on the same base dir
 * brings the same cluster back, on the same ports, with its data.
 * `--identity-key-file <pem>`: the nodes sign their requests to workers with this Ed25519 key; the
 * JSON line gives the public key for `xagent serve --restate --identity-key`.
 * @example npm run restate:cluster -- --nodes 3 --base-dir /var/lib/xagent-restate
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { freePort, restateBinary, until } from '../bench/restate-server.js';
import { identityKeyOf } from '../src/restate/identity-key.js';

interface NodeInfo {
  name: string;
  pid: number;
  ingress: string;
  admin: string;
  node: string;
}

const STATE_FILE = 'cluster.json';
const PORTS_FILE = 'ports.json';

async function start(nodes: number, baseDir: string, identityKeyFile: string | undefined): Promise<void> {
  const binary = restateBinary();
  if ('missing' in binary) throw new Error(binary.missing);
  if (readFileIfAny(path.join(baseDir, STATE_FILE))) throw new Error(`${baseDir} holds a running cluster: --stop it first`);
  mkdirSync(baseDir, { recursive: true });
  const ports = await portsFor(baseDir, nodes);
  const metadata = JSON.stringify(ports.map((port) => `http://127.0.0.1:${port.node}`));
  const cluster = `xagent-${path.basename(path.resolve(baseDir))}`.replace(/[^A-Za-z0-9-]/g, '-');
  const started: NodeInfo[] = ports.map((port, i) => {
    const name = `node-${i + 1}`;
    const dir = path.join(baseDir, name);
    mkdirSync(dir, { recursive: true });
    const log = openSync(path.join(dir, 'restate.log'), 'a');
    const child = spawn(binary.path, ['--base-dir', dir, '--no-logo', '--node-name', name, '--listen-mode', 'tcp'], {
      detached: true,
      stdio: ['ignore', log, log],
      env: {
        PATH: process.env.PATH ?? '',
        RESTATE_CLUSTER_NAME: cluster,
        // The first node creates the cluster; the others join it through the metadata servers.
        RESTATE_AUTO_PROVISION: String(i === 0),
        RESTATE_DEFAULT_REPLICATION: '2',
        RESTATE_BIFROST__DEFAULT_PROVIDER: 'replicated',
        RESTATE_METADATA_SERVER__TYPE: 'replicated',
        RESTATE_METADATA_CLIENT__ADDRESSES: metadata,
        RESTATE_BIND_ADDRESS: `127.0.0.1:${port.node}`,
        RESTATE_ADVERTISED_ADDRESS: `http://127.0.0.1:${port.node}/`,
        RESTATE_INGRESS__BIND_ADDRESS: `127.0.0.1:${port.ingress}`,
        RESTATE_INGRESS__ADVERTISED_INGRESS_ENDPOINT: `http://127.0.0.1:${port.ingress}/`,
        RESTATE_ADMIN__BIND_ADDRESS: `127.0.0.1:${port.admin}`,
        RESTATE_ADMIN__ADVERTISED_ADMIN_ENDPOINT: `http://127.0.0.1:${port.admin}/`,
        RESTATE_DISABLE_TELEMETRY: 'true',
        RESTATE_DEFAULT_NUM_PARTITIONS: '4',
        RESTATE_ROCKSDB_TOTAL_MEMORY_SIZE: '256MB',
        RESTATE_LOG_FILTER: 'warn',
        RESTATE_DEFAULT_RETRY_POLICY__INITIAL_INTERVAL: '200ms',
        RESTATE_DEFAULT_RETRY_POLICY__MAX_INTERVAL: '2s',
        ...(identityKeyFile ? { RESTATE_REQUEST_IDENTITY_PRIVATE_KEY_PEM_FILE: path.resolve(identityKeyFile) } : {}),
      },
    });
    child.unref();
    return {
      name,
      pid: child.pid ?? -1,
      ingress: `http://127.0.0.1:${port.ingress}`,
      admin: `http://127.0.0.1:${port.admin}`,
      node: `http://127.0.0.1:${port.node}`,
    };
  });
  writeFileSync(path.join(baseDir, STATE_FILE), `${JSON.stringify({ nodes: started })}\n`);
  const logs = () => started.map((node) => readLog(baseDir, node.name)).join('\n');
  try {
    // Up when every node's admin API and ingress answer, and the cluster takes queries (its partitions have leaders).
    await until(
      async () => {
        for (const node of started) if (!(await ok(`${node.admin}/health`)) || !(await ok(`${node.ingress}/restate/health`))) return false;
        return queryable(started[0]?.admin ?? '');
      },
      `a ${nodes}-node Restate cluster`,
      logs,
      120_000,
    );
  } catch (error) {
    stop(baseDir);
    throw error;
  }
  const first = started[0] as NodeInfo;
  const identityKey = identityKeyFile ? identityKeyOf(readFileSync(identityKeyFile, 'utf8')) : undefined;
  process.stdout.write(
    `${JSON.stringify({ ingress: first.ingress, admin: first.admin, nodes: started, ...(identityKey ? { identityKey } : {}) })}\n`,
  );
}

/**
 * The nodes' ports: chosen free on the first start and kept in `ports.json`, since each node's
 * data remembers the addresses of the others; a restart on the same base dir uses them again.
 */
async function portsFor(baseDir: string, nodes: number): Promise<Array<{ node: number; ingress: number; admin: number }>> {
  const file = path.join(baseDir, PORTS_FILE);
  if (existsSync(file)) {
    const kept = JSON.parse(readFileSync(file, 'utf8')) as Array<{ node: number; ingress: number; admin: number }>;
    if (kept.length !== nodes) throw new Error(`${baseDir} holds a cluster of ${kept.length} nodes: start it with --nodes ${kept.length}`);
    return kept;
  }
  const ports = [];
  for (let i = 0; i < nodes; i++) ports.push({ node: await freePort(), ingress: await freePort(), admin: await freePort() });
  writeFileSync(file, `${JSON.stringify(ports)}\n`);
  return ports;
}

function readLog(baseDir: string, name: string): string {
  try {
    return `${name}:\n${readFileSync(path.join(baseDir, name, 'restate.log'), 'utf8').slice(-1500)}`;
  } catch {
    return '';
  }
}

async function ok(url: string): Promise<boolean> {
  try {
    return (await fetch(url)).ok;
  } catch {
    return false;
  }
}

async function queryable(admin: string): Promise<boolean> {
  try {
    const answer = await fetch(`${admin}/query`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ query: 'SELECT count(*) AS n FROM sys_invocation' }),
    });
    return answer.ok;
  } catch {
    return false;
  }
}

/** Stops every node the state file lists; resolves once they are gone (SIGKILL after 20 s). */
async function stopAndWait(baseDir: string): Promise<void> {
  const pids = stop(baseDir);
  const deadline = Date.now() + 20_000;
  while (pids.some(alive)) {
    if (Date.now() > deadline) for (const pid of pids.filter(alive)) process.kill(pid, 'SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function stop(baseDir: string): number[] {
  const file = path.join(baseDir, STATE_FILE);
  if (!existsSync(file)) throw new Error(`no cluster in ${baseDir} (no ${STATE_FILE})`);
  const { nodes } = JSON.parse(readFileSync(file, 'utf8')) as { nodes: NodeInfo[] };
  for (const node of nodes) if (alive(node.pid)) process.kill(node.pid, 'SIGTERM');
  writeFileSync(file, '');
  return nodes.map((node) => node.pid);
}

function readFileIfAny(file: string): string {
  return existsSync(file) ? readFileSync(file, 'utf8').trim() : '';
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.startsWith('Z');
  } catch {
    return false;
  }
}

const { values } = parseArgs({
  options: {
    nodes: { type: 'string', default: '3' },
    'base-dir': { type: 'string' },
    stop: { type: 'boolean', default: false },
    'identity-key-file': { type: 'string' },
  },
});
const baseDir = values['base-dir'];
try {
  if (!baseDir) throw new Error('--base-dir <dir> is required: the nodes keep their data and logs there');
  if (values.stop) {
    await stopAndWait(baseDir);
    const { rmSync } = await import('node:fs');
    rmSync(path.join(baseDir, STATE_FILE), { force: true });
  } else {
    const nodes = Number(values.nodes);
    if (!Number.isInteger(nodes) || nodes < 3)
      throw new Error(`--nodes ${values.nodes}: a cluster that survives a lost node needs at least 3`);
    await start(nodes, baseDir, values['identity-key-file']);
  }
} catch (error) {
  process.stderr.write(`restate:cluster: ${(error as Error).message}\n`);
  process.exitCode = 1;
}
