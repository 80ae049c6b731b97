import { describe, expect, it } from 'vitest';
import type { ToolCall } from '../../machines/types.js';
import { checkPermission } from '../../src/permissions/check-permission.js';
import { matchClaudePath } from '../../src/permissions/claude-path.js';
import { parseRule, parseRules } from '../../src/permissions/rules.js';
import type { PermissionMode } from '../../src/permissions/types.js';
import { bash, call, toolOf, WS } from './helpers.js';

/**
 * Rules written the way Claude Code's permission documentation writes them mean what that
 * documentation says (code.claude.com/docs/en/permissions): tool names, the `:*` prefix form with
 * its word boundary, a trailing ` *`, gitignore-style Read/Edit paths with their four anchors,
 * and `mcp__server__*`. Each row is a sentence of that page, deny rules included.
 */

const SETTINGS_ROOT = '/home/u/project';

function decide(c: ToolCall, spec: { allow?: string[]; deny?: string[]; ask?: string[] }, mode: PermissionMode = 'default') {
  const rules = [
    ...parseRules(spec.allow ?? [], 'allow', '.claude/settings.json', SETTINGS_ROOT),
    ...parseRules(spec.deny ?? [], 'deny', '.claude/settings.json', SETTINGS_ROOT),
    ...parseRules(spec.ask ?? [], 'ask', '.claude/settings.json', SETTINGS_ROOT),
  ];
  return checkPermission({ call: c, tool: toolOf(c), mode, rules, workspace: WS }).behavior;
}

describe('Bash(prefix:*): "starts with", at a word boundary', () => {
  it.each([
    ['npm run test', 'allow'],
    ['npm run test --watch', 'allow'],
    ['npm run test:unit', 'ask'],
    ['npm run testing', 'ask'],
    ['npm run tes', 'ask'],
    ['npm run test && rm -rf ~', 'ask'],
  ])('allow Bash(npm run test:*) and %j gives %s', (command, expected) => {
    expect(decide(bash(command), { allow: ['Bash(npm run test:*)'] })).toBe(expected);
  });

  it.each([
    ['git push', 'deny'],
    ['git push origin main', 'deny'],
    ['git push --force', 'deny'],
    ['echo ok && git push', 'deny'],
    ['git pushx', 'allow'],
    ['git status', 'allow'],
  ])('deny Bash(git push:*) with bypassPermissions: %j is %s', (command, expected) => {
    expect(decide(bash(command), { deny: ['Bash(git push:*)'] }, 'bypassPermissions')).toBe(expected);
  });

  it("xagent's own bash( ) name reads :* the same way", () => {
    expect(decide(bash('git push origin'), { deny: ['bash(git push:*)'] }, 'bypassPermissions')).toBe('deny');
  });
});

describe('Bash(x *): a trailing " *" keeps the word boundary; Bash(x*) does not', () => {
  it.each([
    ['ls -la', 'Bash(ls *)', 'allow'],
    ['ls', 'Bash(ls *)', 'allow'],
    ['lsof', 'Bash(ls *)', 'ask'],
    ['lsof', 'Bash(ls*)', 'allow'],
    ['ls -la', 'Bash(ls*)', 'allow'],
    ['git checkout main', 'Bash(git * main)', 'allow'],
    ['git checkout dev', 'Bash(git * main)', 'ask'],
    ['npm run build', 'Bash(npm run build)', 'allow'],
    ['npm run build --prod', 'Bash(npm run build)', 'ask'],
    ['rm -rf /', 'Bash', 'allow'],
    ['rm -rf /', 'Bash(*)', 'allow'],
  ])('%j against allow %s gives %s', (command, rule, expected) => {
    expect(decide(bash(command), { allow: [rule] })).toBe(expected);
  });

  it('a deny Bash(rm *) bites rm alone and with arguments, not rmdir', () => {
    expect(decide(bash('rm -rf build'), { deny: ['Bash(rm *)'] }, 'bypassPermissions')).toBe('deny');
    expect(decide(bash('rm'), { deny: ['Bash(rm *)'] }, 'bypassPermissions')).toBe('deny');
    expect(decide(bash('rmdir x'), { deny: ['Bash(rm *)'] }, 'bypassPermissions')).toBe('allow');
  });
});

describe('Read and Edit paths follow gitignore semantics', () => {
  const read = (p: string) => call('read_file', { path: p });
  const edit = (p: string) => call('edit_file', { path: p, old_string: 'a', new_string: 'b' });
  const write = (p: string) => call('write_file', { path: p, content: '' });

  it.each([
    ['server.pem', 'deny'],
    ['certs/deep.pem', 'deny'],
    ['a/b/c/key.pem', 'deny'],
    ['server.pem.txt', 'allow'],
    ['README.md', 'allow'],
  ])('deny Read(*.pem): reading %j is %s (a pattern without "/" matches at any depth)', (file, expected) => {
    expect(decide(read(file), { deny: ['Read(*.pem)'] })).toBe(expected);
  });

  it('deny Read(.env) bites .env at any depth, and the read tools Grep, Glob and LS as well', () => {
    expect(decide(read('.env'), { deny: ['Read(.env)'] })).toBe('deny');
    expect(decide(read('config/.env'), { deny: ['Read(.env)'] })).toBe('deny');
    expect(decide(read('.envrc'), { deny: ['Read(.env)'] })).toBe('allow');
    expect(decide(call('list_dir', { path: 'secrets' }), { deny: ['Read(secrets/**)'] })).toBe('deny');
    expect(decide(call('grep', { pattern: 'x', path: 'secrets' }), { deny: ['Read(secrets/**)'] })).toBe('deny');
  });

  it('a pattern naming a folder covers what is inside it', () => {
    expect(decide(read('secrets/api/key.txt'), { deny: ['Read(secrets)'] })).toBe('deny');
    expect(decide(read('secrets/api/key.txt'), { deny: ['Read(secrets/)'] })).toBe('deny');
  });

  it.each([
    ['src/a.ts', 'allow'],
    ['src/deep/b.ts', 'allow'],
    ['lib/src/c.ts', 'ask'],
    ['README.md', 'ask'],
  ])('allow Edit(src/**): editing %j is %s (a pattern with "/" is anchored to the workspace)', (file, expected) => {
    expect(decide(edit(file), { allow: ['Edit(src/**)'] })).toBe(expected);
  });

  it('Edit rules apply to every tool that edits files: write_file too; Write rules only to write_file', () => {
    expect(decide(write('src/new.ts'), { allow: ['Edit(src/**)'] })).toBe('allow');
    expect(decide(write('docs/a.md'), { deny: ['Edit(docs/**)'] }, 'bypassPermissions')).toBe('deny');
    expect(decide(edit('docs/a.md'), { allow: ['Write(docs/**)'] })).toBe('ask');
  });

  it("/path is relative to the settings file's project; //path is absolute; ~/path is under the home folder", () => {
    expect(decide(edit('src/x.ts'), { allow: ['Edit(/src/**/*.ts)'] })).toBe('allow');
    expect(decide(edit('lib/src/x.ts'), { allow: ['Edit(/src/**/*.ts)'] })).toBe('ask');
    expect(decide(read('secret/x'), { deny: [`Read(/${WS.slice(1)}/secret/**)`] })).toBe('allow');
    expect(decide(read('secret/x'), { deny: [`Read(/${WS}/secret/**)`] })).toBe('deny');
    expect(decide(read('other/x'), { deny: [`Read(/${WS}/secret/**)`] })).toBe('allow');
  });

  it('matches //abs/** against the absolute path, at any depth below it', () => {
    const bases = { workspace: '/ws', home: '/home/alice' };
    expect(matchClaudePath('//etc/ssl/**', '/etc/ssl/private/key.pem', bases)).toBe(true);
    expect(matchClaudePath('//etc/ssl/**', '/etc/hosts', bases)).toBe(false);
    expect(matchClaudePath('~/Documents/*.pdf', '/home/alice/Documents/a.pdf', bases)).toBe(true);
    expect(matchClaudePath('~/Documents/*.pdf', '/home/alice/Documents/x/a.pdf', bases)).toBe(false);
    expect(matchClaudePath('./.env', '/ws/.env', bases)).toBe(true);
    expect(matchClaudePath('./.env', '/ws/sub/.env', bases)).toBe(false);
  });

  it("xagent's own file rules keep their meaning: read_file(*.pem) is the workspace root only", () => {
    expect(decide(read('certs/deep.pem'), { deny: ['read_file(*.pem)'] })).toBe('allow');
    expect(decide(read('root.pem'), { deny: ['read_file(*.pem)'] })).toBe('deny');
  });
});

describe('tool names and MCP wildcards', () => {
  it('Read allows every read tool, Bash every command; Glob, Grep, LS, MultiEdit name one tool', () => {
    expect(decide(call('read_file', { path: 'a' }), { deny: ['Read'] })).toBe('deny');
    expect(decide(call('glob', { pattern: '*' }), { deny: ['Read'] })).toBe('deny');
    expect(decide(call('glob', { pattern: '*' }), { deny: ['Glob'] })).toBe('deny');
    expect(decide(call('grep', { pattern: 'x' }), { deny: ['Grep'] })).toBe('deny');
    expect(decide(call('list_dir', {}), { deny: ['LS'] })).toBe('deny');
    expect(decide(call('edit_file', { path: 'a', old_string: 'a', new_string: 'b' }), { allow: ['MultiEdit'] })).toBe('allow');
    expect(decide(bash('make'), { allow: ['Bash'] })).toBe('allow');
  });

  it('mcp__s__* means every tool of server s, as mcp__s does; mcp__* every MCP tool', () => {
    expect(parseRule('mcp__github__*')).toEqual({ tool: 'mcp__github' });
    const tool = call('mcp__github__create_issue', {});
    expect(decide(tool, { allow: ['mcp__github__*'] })).toBe('allow');
    expect(decide(tool, { deny: ['mcp__github__*'] }, 'bypassPermissions')).toBe('deny');
    expect(decide(call('mcp__gitlab__x', {}), { deny: ['mcp__github__*'] }, 'bypassPermissions')).toBe('allow');
    expect(decide(call('mcp__gitlab__x', {}), { allow: ['mcp__*'] })).toBe('allow');
  });

  it('a rule for a tool xagent lacks is kept, matching nothing', () => {
    expect(parseRule('WebFetch(domain:github.com)')).toEqual({ tool: 'WebFetch', pattern: 'domain:github.com' });
    expect(decide(bash('curl x'), { deny: ['WebFetch', 'WebSearch', 'Task(Explore)'] }, 'bypassPermissions')).toBe('allow');
  });

  it('Task(<agent>) names the subagent of a task call, where a run has the task tool', () => {
    const explore = call('task', { description: 'd', prompt: 'p', subagent_type: 'Explore' });
    const other = call('task', { description: 'd', prompt: 'p', subagent_type: 'general-purpose' });
    expect(decide(explore, { deny: ['Task(Explore)'] }, 'bypassPermissions')).toBe('deny');
    expect(decide(other, { deny: ['Task(Explore)'] }, 'bypassPermissions')).toBe('allow');
    expect(decide(explore, { allow: ['Task(Explore)'] })).toBe('allow');
    expect(decide(other, { allow: ['Task(Explore)'] })).toBe('ask');
  });

  it('a rule that cannot match anything is still an error', () => {
    expect(() => parseRule('Bash(')).toThrow('missing ")"');
    expect(() => parseRule('Bash()')).toThrow('empty pattern');
    expect(() => parseRule('bassh(ls)')).toThrow('takes no pattern');
  });
});
