import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkPermission } from '../../src/permissions/check-permission.js';
import { parseRules } from '../../src/permissions/rules.js';
import { loadSettings } from '../../src/settings/settings.js';
import { bash, call, toolOf, WS } from './helpers.js';

/** Issue 39: rules decided as Claude Code decides them. */
const decide = (c: ReturnType<typeof call>, allow: string[], deny: string[] = []) =>
  checkPermission({
    call: c,
    tool: toolOf(c),
    mode: 'default',
    rules: [...parseRules(allow, 'allow', '.claude/settings.json', WS), ...parseRules(deny, 'deny', '.claude/settings.json', WS)],
    workspace: WS,
  }).behavior;

describe('leading assignments and command/builtin are read through', () => {
  it.each(['FOO=1 npm test', 'FOO=1 BAR=two npm test -- --watch=false', 'command npm test', 'CI=true command npm test'])(
    '%s runs under Bash(npm test:*)',
    (command) => expect(decide(bash(command), ['Bash(npm test:*)'])).toBe('allow'),
  );

  it.each([
    'PATH=/tmp/evil npm test',
    'NODE_OPTIONS=--require=./x.js npm test',
    'LD_PRELOAD=/tmp/x.so npm test',
    'GIT_SSH_COMMAND=x npm test',
    'FOO=$(rm x) npm test',
    'FOO+=1 npm test',
    'FOO=1',
    'command -p npm test',
  ])('%s still asks', (command) => expect(decide(bash(command), ['Bash(npm test:*)'])).toBe('ask'));

  it('deny rules see the command behind an assignment or a prefix', () => {
    expect(decide(bash('FOO=1 rm -rf build'), ['Bash'], ['Bash(rm:*)'])).toBe('deny');
    expect(decide(bash('command rm -rf build'), ['Bash'], ['Bash(rm:*)'])).toBe('deny');
    expect(decide(bash('builtin command rm x'), ['Bash'], ['Bash(rm:*)'])).toBe('deny');
  });
});

describe('Edit and Write as Claude Code reads them', () => {
  const edit = call('edit_file', { path: 'src/a.ts', old_string: 'a', new_string: 'b' });
  const write = call('write_file', { path: 'src/a.ts', content: 'b' });
  it('a bare Edit allows the edit tool, not writes', () => {
    expect(decide(edit, ['Edit'])).toBe('allow');
    expect(decide(write, ['Edit'])).toBe('ask');
  });
  it('Edit(path) covers every tool that edits files', () => {
    expect(decide(edit, ['Edit(src/**)'])).toBe('allow');
    expect(decide(write, ['Edit(src/**)'])).toBe('allow');
  });
  it('an allow Write(path) allows nothing (file paths are checked against Edit rules), a bare Write allows writes', () => {
    expect(decide(write, ['Write(src/**)'])).toBe('ask');
    expect(decide(write, ['Write'])).toBe('allow');
  });
  it('a deny Write(path) still bites', () => expect(decide(write, ['Edit'], ['Write(src/**)'])).not.toBe('allow'));
  it('mcp__server__* and mcp__server cover every tool of the server, and no other', () => {
    const issue = call('mcp__github__get_issue', {});
    expect(decide(issue, ['mcp__github__*'])).toBe('allow');
    expect(decide(issue, ['mcp__github'])).toBe('allow');
    expect(decide(issue, ['mcp__gitlab__*'])).toBe('ask');
  });
});

describe('a settings file with rules for Claude Code tools xagent lacks', () => {
  function claudeSettings(rules: unknown): { workspace: string; home: string } {
    const root = mkdtempSync(path.join(os.tmpdir(), 'xagent-claude-rules-'));
    const workspace = path.join(root, 'ws');
    mkdirSync(path.join(workspace, '.claude'), { recursive: true });
    writeFileSync(path.join(workspace, '.claude', 'settings.json'), JSON.stringify({ permissions: rules }));
    return { workspace, home: path.join(root, 'home') };
  }

  it('loads with a warning for PowerShell(...) and a tool Claude Code may add tomorrow, and keeps the other rules', () => {
    const where = claudeSettings({
      allow: ['PowerShell(Get-ChildItem:*)', 'FutureTool', 'Bash(npm test:*)'],
      deny: ['PowerShell(Remove-Item:*)'],
    });
    const loaded = loadSettings({ ...where, claudeHome: path.join(where.home, '.claude') });
    expect(loaded.rules.map((rule) => rule.text)).toContain('Bash(npm test:*)');
    expect(loaded.warnings.join('\n')).toMatch(/PowerShell.*kept, but xagent has no such tool/);
    expect(loaded.warnings.join('\n')).toMatch(/FutureTool/);
  });

  it('warns that an allow Write(path) allows nothing, and says to write Edit(path)', () => {
    const where = claudeSettings({ allow: ['Write(src/**)'] });
    const loaded = loadSettings({ ...where, claudeHome: path.join(where.home, '.claude') });
    expect(loaded.warnings.join('\n')).toMatch(/"Write\(src\/\*\*\)" allows nothing.*Edit\(src\/\*\*\)/);
  });

  it("still refuses a mistyped tool in xagent's own file", () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'xagent-claude-rules-'));
    mkdirSync(path.join(root, '.xagent'));
    writeFileSync(path.join(root, '.xagent', 'settings.json'), JSON.stringify({ permissions: { deny: ['bassh(rm*)'] } }));
    expect(() => loadSettings({ workspace: root, home: path.join(root, 'home'), claudeHome: path.join(root, 'nope') })).toThrow(/bassh/);
  });
});
