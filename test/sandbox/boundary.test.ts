import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/sandbox/index.js';
import { bash, DECOY_TEXT, layout, sandboxFor } from './helpers.js';
import { runsHere } from '../support/system-packages.js';

/** These tests run commands in real bubblewrap; without it (outside CI) they skip, and the run says so. */
const BWRAP = runsHere('bwrap');

/** Live processes whose command line holds `marker` (zombies do not count). */
function processesWith(marker: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const cmdline = readFileSync(`/proc/${name}/cmdline`, 'utf8');
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      if (cmdline.includes(marker) && !/^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2))) found.push(Number(name));
    } catch {
      // exited while we looked
    }
  }
  return found;
}

async function settle(marker: string): Promise<number[]> {
  for (let i = 0; i < 40 && processesWith(marker).length > 0; i++) await sleep(50);
  return processesWith(marker);
}

describe.skipIf(!BWRAP)('a sandboxed bash call (real bwrap)', () => {
  it('writes the workspace but nothing outside it: the decoy stays, and the result says sandboxed', async () => {
    const l = layout();
    const result = await bash(l, `echo made > made.txt; echo overwrite > ${l.decoy}; touch ${l.outside}/new.txt; rm -f ${l.decoy}`, {
      sandbox: sandboxFor(l),
    });
    expect(result.isError).toBe(true);
    expect(result.sandboxed).toBe(true);
    expect(result.content).toContain('Read-only file system');
    expect(readFileSync(path.join(l.ws, 'made.txt'), 'utf8')).toBe('made\n');
    expect(readFileSync(l.decoy, 'utf8')).toBe(DECOY_TEXT);
    expect(existsSync(path.join(l.outside, 'new.txt'))).toBe(false);
  });

  it('the same command without the sandbox does reach outside (the test can fail)', async () => {
    const l = layout();
    const result = await bash(l, `echo overwrite > ${l.decoy}`);
    expect(result).toEqual({ isError: false, content: '(no output)\n[exit code: 0]' });
    expect(readFileSync(l.decoy, 'utf8')).toBe('overwrite\n');
  });

  it('cannot write .xagent/settings.json, whether .xagent exists or not, and leaves no placeholder behind', async () => {
    const l = layout();
    const sandbox = sandboxFor(l);
    const attempt = `mkdir -p .xagent; echo '{"permissions":{"allow":["bash"]}}' > .xagent/settings.json; echo '{}' > .mcp.json`;
    const absent = await bash(l, attempt, { sandbox });
    expect(absent.isError).toBe(true);
    expect(readdirSync(l.ws).sort()).toEqual(['victim.txt']);

    mkdirSync(path.join(l.ws, '.xagent'));
    writeFileSync(path.join(l.ws, '.xagent', 'settings.json'), '{}\n');
    const present = await bash(l, `${attempt}; rm -rf .xagent; mv .xagent moved`, { sandbox });
    expect(present.isError).toBe(true);
    expect(present.content).toContain('Read-only file system');
    expect(readFileSync(path.join(l.ws, '.xagent', 'settings.json'), 'utf8')).toBe('{}\n');
    expect(readdirSync(l.ws).sort()).toEqual(['.xagent', 'victim.txt']);
  });

  it('keeps .git/hooks and .git/config read-only, and .git cannot be renamed away, while the rest of .git is writable', async () => {
    const l = layout();
    mkdirSync(path.join(l.ws, '.git', 'hooks'), { recursive: true });
    writeFileSync(path.join(l.ws, '.git', 'config'), '[core]\n');
    const sandbox = sandboxFor(l);
    const hooks = await bash(l, 'echo "touch /pwned" > .git/hooks/pre-commit', { sandbox });
    expect(hooks.isError).toBe(true);
    const config = await bash(l, 'echo "  hooksPath = /var/tmp" >> .git/config', { sandbox });
    expect(config.isError).toBe(true);
    const rename = await bash(l, 'mv .git .git-old && mkdir -p .git/hooks && echo x > .git/hooks/pre-commit', { sandbox });
    expect(rename.isError).toBe(true);
    expect(rename.content).toContain('busy');
    const inside = await bash(l, 'echo ref > .git/HEAD', { sandbox });
    expect(inside.isError).toBe(false);
    expect(readdirSync(path.join(l.ws, '.git', 'hooks'))).toEqual([]);
    expect(readFileSync(path.join(l.ws, '.git', 'config'), 'utf8')).toBe('[core]\n');
  });

  it("hides the fake home's .ssh and the xagent home, while the rest of the home stays readable", async () => {
    const l = layout();
    const sandbox = sandboxFor(l);
    const secret = await bash(l, `cat ${l.secret}; ls -A ${path.dirname(l.secret)}; cat ${l.xagentHome}/sessions/s1/transcript.jsonl`, {
      sandbox,
    });
    expect(secret.isError).toBe(true);
    expect(secret.content).not.toContain('PRIVATE KEY');
    expect(secret.content).not.toContain('"secret":"transcript"');
    const visible = await bash(l, `cat ${l.home}/visible.txt`, { sandbox });
    expect(visible.content).toContain('not a secret');
    const plain = await bash(l, `cat ${l.secret}`);
    expect(plain.content).toContain('PRIVATE KEY');
  });

  it('keeps secrets hidden and .xagent unwritable when the workspace is the home folder itself', async () => {
    const l = layout();
    const atHome = { ...l, ws: l.home };
    const sandbox = createSandbox({
      settings: { network: false, hide: [] },
      workspace: l.home,
      xagentHome: l.xagentHome,
      env: { ...process.env, HOME: l.home },
    });
    const result = await bash(
      atHome,
      'cat .xagent/sessions/s1/transcript.jsonl .ssh/id_ed25519; echo x > .xagent/settings.json; echo ok > notes.txt',
      { sandbox },
    );
    expect(result.content).not.toMatch(/"secret":"transcript"|PRIVATE KEY/);
    expect(result.content).toContain('Read-only file system');
    expect(readFileSync(path.join(l.home, 'notes.txt'), 'utf8')).toBe('ok\n');
    expect(existsSync(path.join(l.xagentHome, 'settings.json'))).toBe(false);
  });

  it('cannot connect to a server on 127.0.0.1 unless the network is allowed', async () => {
    const l = layout();
    const server = net.createServer((socket) => socket.end('hello from outside\n'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    const connect = `exec 3<>/dev/tcp/127.0.0.1/${port} && cat <&3`;
    try {
      const blocked = await bash(l, connect, { sandbox: sandboxFor(l) });
      expect(blocked.isError).toBe(true);
      expect(blocked.content).toMatch(/Connection refused|Network is unreachable/);
      const allowed = await bash(l, connect, { sandbox: sandboxFor(l, { network: true }) });
      expect(allowed.content).toContain('hello from outside');
    } finally {
      server.close();
    }
  });

  it('leaves no process behind after a timeout, not even one that left the process group (setsid)', async () => {
    const l = layout();
    const marker = `4242${process.pid}`;
    const command = `sleep 300.${marker} & setsid sleep 301.${marker} & nohup sleep 302.${marker} >/dev/null 2>&1 & sleep 303.${marker}`;
    const result = await bash(l, command, { sandbox: sandboxFor(l), timeoutMs: 700 });
    expect(result.content).toContain('Timed out');
    expect(await settle(marker)).toEqual([]);
  });

  it('leaves no process behind when the command exits at once, sandboxed or not (issue 31, L2: setsid no longer escapes)', async () => {
    const l = layout();
    const marker = `4343${process.pid}`;
    const command = `setsid sleep 310.${marker} > /dev/null 2>&1 < /dev/null & sleep 0.3; exit 0`;
    expect((await bash(l, command, { sandbox: sandboxFor(l) })).isError).toBe(false);
    expect(await settle(marker)).toEqual([]);

    const plain = await bash(l, command);
    const escaped = await settle(marker);
    for (const pid of escaped) process.kill(pid, 'SIGKILL');
    expect(escaped).toEqual([]);
    expect(plain.content).toContain('Background processes still running when the command exited were stopped');
  });

  it('a process that empties its environment still escapes outside the sandbox (documented), not inside it', async () => {
    const l = layout();
    const marker = `4444${process.pid}`;
    const command = `setsid env -i /bin/sleep 320.${marker} > /dev/null 2>&1 < /dev/null & sleep 0.3; exit 0`;
    await bash(l, command, { sandbox: sandboxFor(l) });
    expect(await settle(marker)).toEqual([]);
    await bash(l, command);
    const escaped = processesWith(marker);
    for (const pid of escaped) process.kill(pid, 'SIGKILL');
    expect(escaped.length).toBe(1);
  });

  it('runs without capabilities: mounts cannot be undone and no new user namespace can be made', async () => {
    const l = layout();
    const sandbox = sandboxFor(l);
    const result = await bash(
      l,
      `grep CapEff /proc/self/status; umount ${path.dirname(l.secret)} && echo UNMOUNTED; mount -o remount,bind,rw / && echo REMOUNTED; unshare -Ur true && echo USERNS; cat ${l.secret}`,
      { sandbox },
    );
    expect(result.content).toMatch(/CapEff:\s+0+\n/);
    expect(result.content).not.toMatch(/UNMOUNTED|REMOUNTED|USERNS|PRIVATE KEY/);
  });

  it('has a private /tmp and its own PID namespace, and withholds the API key', async () => {
    const l = layout();
    const marker = path.join('/tmp', `xagent-sandbox-marker-${process.pid}`);
    writeFileSync(marker, 'host /tmp\n');
    const key = process.env.ANTHROPIC_API_KEY;
    process.env.ANTHROPIC_API_KEY = 'sk-ant-test-key';
    try {
      const sandbox = sandboxFor(l);
      const result = await bash(
        l,
        `test -e ${marker} && echo SEES_HOST_TMP; echo pid=$$; ls /proc | grep -c '^[0-9]'; echo key=\${ANTHROPIC_API_KEY:-none}; touch /tmp/scratch && echo tmp-writable`,
        { sandbox },
      );
      expect(result.content).not.toContain('SEES_HOST_TMP');
      expect(result.content).toMatch(/pid=[1-3]\n/);
      expect(result.content).toContain('key=none');
      expect(result.content).toContain('tmp-writable');
      expect(existsSync('/tmp/scratch')).toBe(false);
    } finally {
      if (key === undefined) delete process.env.ANTHROPIC_API_KEY;
      else process.env.ANTHROPIC_API_KEY = key;
      rmSync(marker, { force: true });
    }
  });
});
