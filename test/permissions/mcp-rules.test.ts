import { describe, expect, it } from 'vitest';
import { checkPermission } from '../../src/permissions/check-permission.js';
import { ruleNamesTool } from '../../src/permissions/rules.js';
import type { PermissionMode } from '../../src/permissions/types.js';
import { rules, WS } from './helpers.js';

/** MCP tools (`mcp__<server>__<tool>`): rules per tool or per server, and they ask by default. */
const decide = (name: string, spec: Parameters<typeof rules>[0], mode: PermissionMode = 'default', readOnly = false) =>
  checkPermission({ call: { id: '1', name, input: {} }, tool: { readOnly }, mode, rules: rules(spec), workspace: WS });

describe('MCP tools and permission rules', () => {
  it('a server rule names every tool of that server and no other', () => {
    expect(ruleNamesTool('mcp__github', 'mcp__github__create_issue')).toBe(true);
    expect(ruleNamesTool('mcp__github__create_issue', 'mcp__github__create_issue')).toBe(true);
    expect(ruleNamesTool('mcp__git', 'mcp__github__create_issue')).toBe(false);
    expect(ruleNamesTool('mcp__github__create', 'mcp__github__create_issue')).toBe(false);
    expect(ruleNamesTool('mcp__github', 'mcp__github')).toBe(true);
    expect(ruleNamesTool('bash', 'mcp__bash__x')).toBe(false);
  });

  it.each([
    // [tool, rules, mode, readOnlyHint, behavior]
    ['mcp__gh__create_issue', {}, 'default', false, 'ask'],
    ['mcp__gh__list_issues', {}, 'default', true, 'ask'],
    ['mcp__gh__create_issue', { allow: ['mcp__gh'] }, 'default', false, 'allow'],
    ['mcp__gh__create_issue', { allow: ['mcp__gh__create_issue'] }, 'default', false, 'allow'],
    ['mcp__gh__delete_repo', { allow: ['mcp__gh__create_issue'] }, 'default', false, 'ask'],
    ['mcp__gh__delete_repo', { allow: ['mcp__gh'], deny: ['mcp__gh__delete_repo'] }, 'default', false, 'deny'],
    ['mcp__gh__create_issue', { deny: ['mcp__gh'] }, 'bypassPermissions', false, 'deny'],
    ['mcp__gh__create_issue', { allow: ['mcp__gh'], ask: ['mcp__gh__create_issue'] }, 'default', false, 'ask'],
    ['mcp__gh__create_issue', {}, 'bypassPermissions', false, 'allow'],
    ['mcp__gh__create_issue', {}, 'acceptEdits', false, 'ask'],
    ['mcp__gh__create_issue', {}, 'dontAsk', false, 'deny'],
    ['mcp__gh__create_issue', { allow: ['mcp__gh'] }, 'dontAsk', false, 'allow'],
    ['mcp__gh__create_issue', { allow: ['mcp__gh'] }, 'plan', false, 'deny'],
    ['mcp__gh__list_issues', {}, 'plan', true, 'ask'],
    ['mcp__gh__list_issues', { allow: ['mcp__gh'] }, 'plan', true, 'allow'],
  ] as const)('%s with %j in %s mode (readOnlyHint %s): %s', (tool, spec, mode, readOnly, behavior) => {
    expect(decide(tool, spec, mode, readOnly).behavior).toBe(behavior);
  });

  it('says why it asks', () => {
    expect(decide('mcp__gh__create_issue', {}).decidedBy).toBe('default: MCP tools ask (mcp__gh__create_issue)');
  });
});
