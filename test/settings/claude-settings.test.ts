import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkPermission } from '../../src/permissions/check-permission.js';
import { loadSettings } from '../../src/settings/settings.js';
import { tempDir } from '../support/engine-harness.js';

/**
 * Claude Code's settings files, read where Claude Code reads them, just below xagent's own file of
 * the same scope; what xagent does not use is a warning naming the file, never a refusal.
 */
function place() {
  const root = tempDir('xagent-claude-settings-');
  const workspace = path.join(root, 'ws');
  const home = path.join(root, 'xagent-home');
  const claudeHome = path.join(root, 'home', '.claude');
  mkdirSync(workspace, { recursive: true });
  const write = (file: string, content: unknown) => {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify(content));
    return file;
  };
  const files = {
    claudeProject: path.join(workspace, '.claude', 'settings.json'),
    claudeLocal: path.join(workspace, '.claude', 'settings.local.json'),
    claudeUser: path.join(claudeHome, 'settings.json'),
    xagentProject: path.join(workspace, '.xagent', 'settings.json'),
    xagentLocal: path.join(workspace, '.xagent', 'settings.local.json'),
    xagentUser: path.join(home, 'settings.json'),
  };
  return { workspace, files, write, load: () => loadSettings({ workspace, home, claudeHome }) };
}

describe("Claude Code's settings files", () => {
  it('are read, each just below the xagent file of its scope, highest first', () => {
    const { files, write, load } = place();
    for (const [name, file] of Object.entries(files)) write(file, { permissions: { allow: [`mcp__${name}`] } });
    const loaded = load();
    expect(loaded.files).toEqual([
      files.xagentLocal,
      files.claudeLocal,
      files.xagentProject,
      files.claudeProject,
      files.xagentUser,
      files.claudeUser,
    ]);
    expect(loaded.rules.map((r) => r.source)).toEqual(loaded.files);
    expect(loaded.warnings).toEqual([]);
  });

  it('honours permissions.defaultMode; the xagent file of the same scope wins', () => {
    const { files, write, load } = place();
    write(files.claudeProject, { permissions: { defaultMode: 'acceptEdits' } });
    expect(load()).toMatchObject({ mode: 'acceptEdits', modeSource: files.claudeProject });
    write(files.xagentProject, { permissionMode: 'plan' });
    expect(load()).toMatchObject({ mode: 'plan', modeSource: files.xagentProject });
  });

  it("skips with a warning what xagent does not use, and a project file's bypassPermissions", () => {
    const { files, write, load } = place();
    write(files.claudeProject, {
      $schema: 'https://json.schemastore.org/claude-code-settings.json',
      env: { FOO: '1' },
      statusLine: { type: 'command', command: 'x' },
      permissions: { defaultMode: 'bypassPermissions', additionalDirectories: ['../docs'], allow: ['Read'] },
    });
    const loaded = load();
    expect(loaded.mode).toBeUndefined();
    expect(loaded.rules.map((r) => r.text)).toEqual(['Read']);
    // env is read (issue 39): it reaches bash, hooks and MCP servers.
    expect(loaded.env).toEqual([{ source: files.claudeProject, vars: { FOO: '1' } }]);
    expect(loaded.warnings).toEqual([
      `${files.claudeProject}: ignored (xagent does not use them): statusLine`,
      `${files.claudeProject}: "permissions.additionalDirectories" ignored: xagent's file tools stay inside the workspace`,
      `${files.claudeProject}: "permissions.defaultMode": "bypassPermissions" ignored: only your own settings or --permission-mode may turn it on`,
    ]);
  });

  it('~/.claude/settings.json may turn on bypassPermissions, as your own settings may', () => {
    const { files, write, load } = place();
    write(files.claudeUser, { permissions: { defaultMode: 'bypassPermissions' } });
    expect(load().mode).toBe('bypassPermissions');
  });

  it('warns once per file about rules for tools xagent lacks, and keeps them', () => {
    const { files, write, load } = place();
    write(files.claudeLocal, { permissions: { allow: ['WebFetch(domain:a.com)', 'WebFetch(domain:b.com)', 'WebSearch', 'Bash(ls:*)'] } });
    const loaded = load();
    expect(loaded.rules).toHaveLength(4);
    expect(loaded.warnings).toEqual([
      `${files.claudeLocal}: rules for WebFetch, WebSearch kept, but xagent has no such tool, so they match nothing`,
    ]);
  });

  it('still refuses a rule that cannot match anything, naming the file and the entry', () => {
    const { files, write, load } = place();
    write(files.claudeProject, { permissions: { deny: ['Bash(rm', 'Read'] } });
    expect(() => load()).toThrow(`${files.claudeProject}: permissions.deny[0]: bad rule "Bash(rm": missing ")" at the end`);
  });

  it('anchors /path rules at the project of the file: the workspace for .claude, the home folder for ~/.claude', () => {
    const { workspace, files, write, load } = place();
    write(files.claudeProject, { permissions: { deny: ['Read(/secret/**)'] } });
    write(files.claudeUser, { permissions: { deny: ['Edit(/notes/**)'] } });
    const rules = load().rules;
    const decide = (name: string, file: string) =>
      checkPermission({
        call: { id: '1', name, input: { path: file, old_string: 'a', new_string: 'b' } },
        tool: { readOnly: true },
        mode: 'bypassPermissions',
        rules,
        workspace,
      }).behavior;
    expect(decide('read_file', 'secret/a.txt')).toBe('deny');
    expect(decide('read_file', 'other/secret/a.txt')).toBe('allow');
    // ~/.claude's /notes is $HOME/notes, not the workspace's notes/.
    expect(decide('edit_file', 'notes/a.md')).toBe('allow');
  });

  it('a .mcp.json without mcpServers is a warning that says what is expected', () => {
    const { workspace, write, load } = place();
    write(path.join(workspace, '.mcp.json'), { fs: { command: 'npx' } });
    expect(load().warnings).toEqual([
      `${path.join(workspace, '.mcp.json')}: no "mcpServers" key, so no server is started (expected {"mcpServers": {"<name>": {...}}})`,
    ]);
  });
});
