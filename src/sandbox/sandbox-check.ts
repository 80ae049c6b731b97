import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { INSTALL_HINT, SandboxUnavailableError } from './find-bwrap.js';
import { ProtectedLinkError } from './mount-plan.js';
import type { Sandbox } from './sandbox.js';

/** One thing `xagent sandbox check` tried inside the sandbox. */
export interface CheckResult {
  name: string;
  ok: boolean;
  detail: string;
}

/**
 * Starts one sandboxed `true`, so a bwrap that cannot work here (no user namespaces, an old
 * version) is an error at start, never a silent run outside the sandbox.
 * @example assertSandboxStarts(sandbox) // throws SandboxUnavailableError with bwrap's own words
 */
export function assertSandboxStarts(sandbox: Sandbox): void {
  let probe: ReturnType<Sandbox['wrap']>;
  try {
    probe = sandbox.wrap({ command: 'true', args: [], cwd: sandbox.options.workspace });
  } catch (error) {
    // A protected path that is a symlink: said at start, not once per command.
    if (error instanceof ProtectedLinkError) throw new SandboxUnavailableError(error.message);
    throw error;
  }
  try {
    const result = spawnSync(probe.command, probe.args, { cwd: probe.cwd, env: probe.env, encoding: 'utf8', timeout: 10_000 });
    if (result.status === 0) return;
    const why = result.error?.message ?? (result.stderr.trim() || `exit ${result.status ?? result.signal}`);
    throw new SandboxUnavailableError(`${sandbox.options.bwrap} cannot start a sandbox on this machine: ${why}. ${INSTALL_HINT}`);
  } finally {
    probe.release();
  }
}

/** Runs a bash snippet inside the sandbox; resolves with its exit code and output. */
function inside(sandbox: Sandbox, script: string): Promise<{ code: number | null; output: string }> {
  let p: ReturnType<Sandbox['wrap']>;
  try {
    p = sandbox.wrap({ command: 'bash', args: ['-c', script], cwd: sandbox.options.workspace });
  } catch (error) {
    return Promise.resolve({ code: null, output: (error as Error).message });
  }
  return new Promise((resolve) => {
    const child = spawn(p.command, p.args, { cwd: p.cwd, env: p.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', (error) => {
      p.release();
      resolve({ code: null, output: error.message });
    });
    child.once('close', (code) => {
      p.release();
      resolve({ code, output: output.trim() });
    });
  });
}

const quote = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;

/**
 * What works on this machine: each promise of the sandbox tried for real from inside it.
 * @example for (const r of await checkSandbox(sandbox)) console.log(r.ok ? '✓' : '✗', r.name, r.detail);
 */
export async function checkSandbox(sandbox: Sandbox): Promise<CheckResult[]> {
  const { bwrap, workspace, network, hidden } = sandbox.options;
  const results: CheckResult[] = [];
  const version = spawnSync(bwrap, ['--version'], { encoding: 'utf8' });
  results.push({ name: 'bwrap found', ok: version.status === 0, detail: `${bwrap} (${(version.stdout || version.stderr || '').trim()})` });
  const started = await inside(sandbox, 'true');
  results.push({ name: 'starts a sandbox', ok: started.code === 0, detail: started.code === 0 ? 'bash ran inside' : started.output });
  if (started.code !== 0) return results;

  const probe = async (name: string, script: string, detail: string) => {
    const { code, output } = await inside(sandbox, script);
    results.push({ name, ok: code === 0, detail: code === 0 ? detail : `failed: ${output || `exit ${code}`}` });
  };
  await probe('no capabilities', "grep -Eq '^CapEff:[[:space:]]*0+$' /proc/self/status", 'mounts cannot be undone from inside');
  const underTmp = workspace === '/tmp' || workspace.startsWith('/tmp/');
  await probe(
    'rest of the file system read-only',
    // A workspace under /tmp sits inside the sandbox's private /tmp, whose folders are writable by design.
    `! test -w /usr && ! test -w /etc${underTmp ? '' : ` && ! test -w ${quote(path.dirname(workspace))}`}`,
    underTmp ? '/usr and /etc' : "/usr, /etc and the workspace's parent",
  );
  await probe('workspace writable', `test -w ${quote(workspace)}`, workspace);
  await probe(
    '.xagent, .claude, .mcp.json, .git/hooks, .git/config, .git/commondir read-only',
    '! test -w .xagent && ! test -w .claude && ! test -w .mcp.json && ! test -w .git/hooks && ! test -w .git/commondir && ! { test -e .git/config && test -w .git/config; }',
    'even where they do not exist yet',
  );

  const marker = mkdtempSync('/tmp/xagent-sandbox-check-');
  try {
    await probe('private /tmp', `! test -e ${quote(marker)}`, 'the real /tmp is not visible');
  } finally {
    rmSync(marker, { recursive: true, force: true });
  }
  await probe(
    'own PID namespace',
    'test "$(ls /proc | grep -c "^[0-9]")" -lt 10',
    "only the command's own processes are visible; all end with it",
  );

  const shown = hidden.filter((entry) => {
    try {
      return statSync(entry) !== undefined;
    } catch {
      return false;
    }
  });
  const emptyScript =
    shown
      .map((entry) => `{ if test -d ${quote(entry)}; then test -z "$(ls -A ${quote(entry)})"; else ! test -s ${quote(entry)}; fi; }`)
      .join(' && ') || 'true';
  await probe('secrets hidden', emptyScript, shown.length ? shown.join(', ') : 'none of the listed folders exist here');

  const server = net.createServer((socket) => socket.end());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  try {
    const connect = `(exec 3<>/dev/tcp/127.0.0.1/${port}) 2>/dev/null`;
    if (network) await probe('network allowed (sandbox.network)', connect, `reached 127.0.0.1:${port} outside`);
    else await probe('no network', `! ${connect}`, `127.0.0.1:${port} outside is unreachable`);
  } finally {
    server.close();
  }
  return results;
}
