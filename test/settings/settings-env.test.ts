import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { commandEnv } from '../../src/run/command-env.js';
import { parseEnvSection } from '../../src/settings/settings-env.js';
import { loadSettings, mergeEnvLayers, SettingsError } from '../../src/settings/settings.js';
import { gateSettings } from '../../src/trust/gate.js';
import { envItem, type SettingsForTrust } from '../../src/trust/project-items.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("settings' env: reading and merging", () => {
  it('takes strings as written, numbers and booleans as strings, no $VAR expansion', () => {
    expect(parseEnvSection({ A: '$HOME/x', N: 3, B: true }, 'f', true)).toEqual({
      vars: { A: '$HOME/x', N: '3', B: 'true' },
      warnings: [],
    });
  });

  it("skips a bad entry of Claude Code's file with a warning, and refuses it in xagent's own", () => {
    const claude = parseEnvSection({ OK: '1', BAD: ['x'], 'A=B': '1' }, 'f', true);
    expect(claude.vars).toEqual({ OK: '1' });
    expect(claude.warnings).toEqual([
      'env."BAD" skipped: the value must be a string, got ["x"]',
      'env."A=B" skipped: a variable name cannot be empty or hold "=" or NUL',
    ]);
    expect(() => parseEnvSection({ BAD: null }, '/ws/.xagent/settings.json', false)).toThrow(SettingsError);
    expect(() => parseEnvSection(['A=1'], 'f', true)).toThrow('"env" must be an object');
  });

  it('keeps a variable named __proto__ a variable', () => {
    const { vars } = parseEnvSection(JSON.parse('{"__proto__": "x"}'), 'f', true);
    expect(Object.keys(vars)).toEqual(['__proto__']);
    expect(mergeEnvLayers([{ source: 'a', vars }])).toHaveProperty('__proto__', 'x');
  });

  it('reads every file, and the most specific file that sets a name wins (local, project, user; xagent above Claude Code)', () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'xagent-env-unit-'));
    dirs.push(root);
    const workspace = path.join(root, 'ws');
    const home = path.join(root, 'home');
    const claudeHome = path.join(root, 'claude');
    const write = (file: string, env: Record<string, string>) => {
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, JSON.stringify({ env }));
    };
    write(path.join(claudeHome, 'settings.json'), { A: 'claude-user', B: 'claude-user', C: 'claude-user', D: 'claude-user' });
    write(path.join(home, 'settings.json'), { A: 'xagent-user', B: 'xagent-user', C: 'xagent-user' });
    write(path.join(workspace, '.claude', 'settings.json'), { A: 'claude-project', B: 'claude-project' });
    write(path.join(workspace, '.claude', 'settings.local.json'), { A: 'claude-local' });
    const settings = loadSettings({ workspace, home, claudeHome });
    expect(mergeEnvLayers(settings.env)).toEqual({ A: 'claude-local', B: 'claude-project', C: 'xagent-user', D: 'claude-user' });
    expect(settings.warnings.join('\n')).not.toContain('ignored (xagent does not use them): env');
  });

  it('keeps the tags that find leftover processes out of reach of a settings file', () => {
    const warnings: string[] = [];
    expect(commandEnv([{ source: 's', vars: { XAGENT_RUN_TAG: 'x', XAGENT_CALL_TAG: 'y', A: '1' } }], {}, (w) => warnings.push(w))).toEqual(
      { A: '1' },
    );
    expect(warnings).toHaveLength(2);
  });

  it("withholds the agent's credentials from what commands get, saying where they were set", () => {
    const warnings: string[] = [];
    const layers = [{ source: '/u/.claude/settings.json', vars: { ANTHROPIC_API_KEY: 'sk-ant-x', ANTHROPIC_AUTH_TOKEN: 't', KEEP: '1' } }];
    expect(commandEnv(layers, {}, (w) => warnings.push(w))).toEqual({ KEEP: '1' });
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(/^\/u\/\.claude\/settings\.json: env\.ANTHROPIC_API_KEY is not given to commands/);
    expect(commandEnv(layers, { XAGENT_PASS_API_KEY: '1' })).toHaveProperty('ANTHROPIC_API_KEY', 'sk-ant-x');
  });
});

describe("settings' env and the trust gate", () => {
  const workspace = '/ws';
  const user = '/home/me/.claude/settings.json';
  const project = '/ws/.claude/settings.json';
  const settings: SettingsForTrust = {
    rules: [],
    hooks: [],
    mcpServers: [],
    env: [
      { source: project, vars: { PATH: '/ws/bin:/usr/bin', LOG: '1' } },
      { source: user, vars: { EDITOR: 'vim' } },
    ],
  };

  it("leaves out a project file's variables until trusted, one item each, and keeps the user's", () => {
    const gated = gateSettings(settings, { workspace, userSettingsFile: user, trusted: new Set() });
    expect(gated.env).toEqual([{ source: user, vars: { EDITOR: 'vim' } }]);
    expect(gated.pending.map((item) => [item.kind, item.text, item.file])).toEqual([
      ['env', 'env PATH (changes which programs run)', '.claude/settings.json'],
      ['env', 'env LOG', '.claude/settings.json'],
    ]);
  });

  it('applies a trusted variable, and asks again once its value changes', () => {
    const trusted = new Set([envItem(project, 'LOG', '1', workspace).key]);
    expect(gateSettings(settings, { workspace, userSettingsFile: user, trusted }).env[0]).toEqual({ source: project, vars: { LOG: '1' } });
    const changed = { ...settings, env: [{ source: project, vars: { LOG: '2' } }] };
    expect(gateSettings(changed, { workspace, userSettingsFile: user, trusted }).env).toEqual([]);
  });
});
