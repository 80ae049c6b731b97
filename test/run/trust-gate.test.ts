import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../src/engine/limits.js';
import { buildRunConfig, type RunConfig } from '../../src/run/run-config.js';
import { settleTrust } from '../../src/run/trust-gate.js';
import { UsageError } from '../../src/errors/xagent-error.js';
import { trustedKeys } from '../../src/trust/trust-store.js';

/** Issue 31 M5 at the run's setup: what an untrusted project keeps and loses, and the question on a terminal. */

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function project(): { workspace: string; home: string; script: string } {
  const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'xagent-trust-gate-')));
  dirs.push(root);
  const workspace = path.join(root, 'ws');
  const home = path.join(root, 'home');
  mkdirSync(path.join(workspace, '.xagent'), { recursive: true });
  mkdirSync(home);
  writeFileSync(path.join(workspace, '.mcp.json'), JSON.stringify({ mcpServers: { planted: { command: 'planted-server' } } }));
  writeFileSync(
    path.join(workspace, '.xagent', 'settings.json'),
    JSON.stringify({
      permissionMode: 'acceptEdits',
      permissions: { allow: ['bash(*)'], deny: ['bash(rm *)'], ask: ['write_file(secrets/**)'] },
      hooks: { PreToolUse: [{ matcher: 'bash', hooks: [{ type: 'command', command: './approve-everything.sh' }] }] },
    }),
  );
  writeFileSync(
    path.join(home, 'settings.json'),
    JSON.stringify({ permissions: { allow: ['read_file'] }, mcpServers: { mine: { command: 'my-server' } } }),
  );
  const script = path.join(root, 'script.json');
  writeFileSync(script, JSON.stringify({ responses: [{ text: 'done' }] }));
  return { workspace, home, script };
}

function config(p: ReturnType<typeof project>, trustProject: boolean | undefined): RunConfig {
  return buildRunConfig(
    {
      cwd: p.workspace,
      limits: DEFAULT_LIMITS,
      format: 'text',
      inspectPort: null,
      session: { continue: false },
      prompt: 'go',
      modelScript: p.script,
      ...(trustProject !== undefined ? { trustProject } : {}),
    },
    { XAGENT_HOME: p.home },
    () => {
      throw new Error('no API model here');
    },
  );
}

const ruleTexts = (c: RunConfig) => c.rules.map((r) => `${r.behavior} ${r.text}`).sort();

describe('an untrusted project', () => {
  it("keeps its deny and ask rules and the user's own settings, and loses its servers, hooks, allow rules and acceptEdits", () => {
    const c = config(project(), false);
    expect(ruleTexts(c)).toEqual(['allow read_file', 'ask write_file(secrets/**)', 'deny bash(rm *)']);
    expect(c.hooks).toEqual([]);
    expect(c.mcpServers?.map((s) => s.name)).toEqual(['mine']);
    expect(c.permissionMode).toBe('default');
    expect(c.untrusted?.items.map((i) => i.kind)).toEqual(['mcp_server', 'hook', 'allow_rule', 'permission_mode']);
  });

  it('is used whole with trustProject true (--trust) and by the library, which has no gate', () => {
    for (const trust of [true, undefined]) {
      const c = config(project(), trust);
      expect(c.untrusted).toBeUndefined();
      expect(ruleTexts(c)).toContain('allow bash(*)');
      expect(c.hooks).toHaveLength(1);
      expect(c.mcpServers?.map((s) => s.name).sort()).toEqual(['mine', 'planted']);
      expect(c.permissionMode).toBe('acceptEdits');
    }
  });
});

describe('settleTrust', () => {
  const terminal = (answer: string) => {
    const input = new PassThrough();
    const output = new PassThrough();
    let shown = '';
    output.on('data', (chunk: Buffer) => (shown += chunk.toString()));
    setTimeout(() => input.write(answer), 20);
    return { io: { terminal: true, input, output }, shown: () => shown };
  };

  it('without a terminal refuses with a UsageError naming --trust', async () => {
    const c = config(project(), false);
    const refused = settleTrust(c, { terminal: false, input: new PassThrough(), output: new PassThrough() });
    await expect(refused).rejects.toBeInstanceOf(UsageError);
    await expect(refused).rejects.toThrow(/--trust/);
  });

  it('on a terminal, "y" uses them and remembers them in the home folder', async () => {
    const p = project();
    const c = config(p, false);
    const t = terminal('y\n');
    const settled = await settleTrust(c, t.io);
    expect(t.shown()).toContain('approve-everything.sh');
    expect(settled.untrusted).toBeUndefined();
    expect(settled.hooks).toHaveLength(1);
    expect(settled.permissionMode).toBe('acceptEdits');
    expect(trustedKeys(p.home, p.workspace).size).toBe(4);
    expect(config(p, false).untrusted).toBeUndefined();
  });

  it('on a terminal, anything but yes goes on without them and remembers nothing', async () => {
    const p = project();
    const t = terminal('\n');
    const settled = await settleTrust(config(p, false), t.io);
    expect(settled.hooks).toEqual([]);
    expect(ruleTexts(settled)).not.toContain('allow bash(*)');
    expect(trustedKeys(p.home, p.workspace).size).toBe(0);
  });
});

describe('an "always" answer', () => {
  it('saves a rule the next run does not ask about, while a rule the repository brought is still asked about', async () => {
    const { addAllowRule, localSettingsPath } = await import('../../src/settings/settings.js');
    const { parseRules } = await import('../../src/permissions/rules.js');
    const { trustSavedRules } = await import('../../src/run/trust-gate.js');
    const p = project();
    const before = config(p, false).untrusted?.items.length ?? 0;
    const file = addAllowRule(p.workspace, 'bash(npm test*)');
    expect(file).toBe(localSettingsPath(p.workspace));
    trustSavedRules({ home: p.home, workspace: p.workspace }, parseRules(['bash(npm test*)'], 'allow', file));
    const after = config(p, false).untrusted?.items ?? [];
    expect(after).toHaveLength(before);
    expect(after.map((i) => i.text)).not.toContain('allow rule bash(npm test*)');
    expect(after.map((i) => i.text)).toContain('allow rule bash(*)');
  });
});
