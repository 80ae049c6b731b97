import { describe, expect, it } from 'vitest';
import type { ToolCall } from '../../machines/types.js';
import { checkPermission } from '../../src/permissions/check-permission.js';
import type { PermissionMode } from '../../src/permissions/types.js';
import { bash, call, rules, toolOf, WS } from './helpers.js';

const decide = (c: ToolCall, spec: Parameters<typeof rules>[0], mode: PermissionMode = 'default') =>
  checkPermission({ call: c, tool: toolOf(c), mode, rules: rules(spec), workspace: WS });

describe('bash rules', () => {
  it.each([
    // [command, rules, expected behavior]
    ['npm test', { allow: ['bash(npm test*)'] }, 'allow'],
    ['npm test -- --watch', { allow: ['bash(npm test*)'] }, 'allow'],
    ['npm  test', { allow: ['bash(npm test)'] }, 'allow'],
    ['npm test --watch', { allow: ['bash(npm test)'] }, 'ask'],
    ['npm test && rm -rf ~', { allow: ['bash(npm test*)'] }, 'ask'],
    ['npm test; rm -rf ~', { allow: ['bash(npm test*)'] }, 'ask'],
    ['npm test | sh', { allow: ['bash(npm test*)'] }, 'ask'],
    ['npm test & rm -rf ~', { allow: ['bash(npm test*)'] }, 'ask'],
    ['npm test\nrm -rf ~', { allow: ['bash(npm test*)'] }, 'ask'],
    ['npm test $(rm -rf ~)', { allow: ['bash(npm test*)'] }, 'ask'],
    ['npm test `rm -rf ~`', { allow: ['bash(npm test*)'] }, 'ask'],
    ['npm test "$(rm -rf ~)"', { allow: ['bash(npm test*)'] }, 'ask'],
    ['(npm test; rm -rf ~)', { allow: ['bash(npm test*)'] }, 'ask'],
    ["npm test 'a && b'", { allow: ['bash(npm test*)'] }, 'allow'],
    ['npm test && npm run lint', { allow: ['bash(npm test*)', 'bash(npm run lint)'] }, 'allow'],
    ['npm test | grep ok', { allow: ['bash(npm test*)', 'bash(grep *)'] }, 'allow'],
    ['npm test "unbalanced', { allow: ['bash(npm test*)'] }, 'ask'],
    ['cat <<EOF\nhi\nEOF', { allow: ['bash(cat*)'] }, 'ask'],
    ['npm test > ~/.bashrc', { allow: ['bash(npm test*)'] }, 'ask'],
    ['npm test > out.log', { allow: ['bash(npm test > out.log)'] }, 'allow'],
    ['npm test > /dev/null 2>&1', { allow: ['bash(npm test*)'] }, 'allow'],
    ['anything at all; really', { allow: ['bash'] }, 'allow'],
    ['echo "unbalanced', { allow: ['bash'] }, 'allow'],
    ['', { allow: ['bash(*)'] }, 'ask'],
    ['touch *.ts', { allow: ['bash(touch \\*.ts)'] }, 'allow'],
    ['touch a.ts', { allow: ['bash(touch \\*.ts)'] }, 'ask'],
    ['rm -rf ~', { deny: ['bash(rm*)'] }, 'deny'],
    ['echo hi && rm -rf ~', { allow: ['bash'], deny: ['bash(rm*)'] }, 'deny'],
    ['echo $(rm -rf ~)', { allow: ['bash'], deny: ['bash(rm*)'] }, 'deny'],
    ['"rm" -rf ~', { allow: ['bash'], deny: ['bash(rm*)'] }, 'deny'],
    ['\\rm -rf ~', { allow: ['bash'], deny: ['bash(rm*)'] }, 'deny'],
    ['sudo -n rm -rf ~', { allow: ['bash'], deny: ['bash(rm*)'] }, 'deny'],
    ['FOO=1 rm -rf ~', { allow: ['bash'], deny: ['bash(rm*)'] }, 'deny'],
    ['/bin/rm -rf ~', { allow: ['bash'], deny: ['bash(rm*)'] }, 'deny'],
    ['cat <<EOF\nx\nEOF\nrm -rf ~', { allow: ['bash'], deny: ['bash(rm*)'] }, 'deny'],
    ['rmdir x', { allow: ['bash'], deny: ['bash(rm *)'] }, 'allow'],
    ['git push --force', { allow: ['bash(git *)'], ask: ['bash(git push*)'] }, 'ask'],
    ['git status', { allow: ['bash(git *)'], ask: ['bash(git push*)'] }, 'allow'],
    ['npm test', { allow: ['bash(npm test*)'], deny: ['bash(npm*)'] }, 'deny'],
  ] as const)('%j with %j is %s', (command, spec, expected) => {
    expect(decide(bash(command), spec).behavior).toBe(expected);
  });

  it('names the rule and its source when a rule decides', () => {
    const decision = checkPermission({
      call: bash('echo hi && rm -rf ~'),
      tool: { readOnly: false },
      mode: 'default',
      rules: rules({ deny: ['bash(rm*)'] }, '/home/u/.xagent/settings.json'),
      workspace: WS,
    });
    expect(decision).toMatchObject({
      behavior: 'deny',
      decidedBy: 'deny rule "bash(rm*)" from /home/u/.xagent/settings.json (matches "rm -rf ~")',
    });
    expect(decision.message).toContain('bash');
  });

  it('names every allow rule that together cover a compound command', () => {
    const decision = decide(bash('npm test && npm run lint'), { allow: ['bash(npm test*)', 'bash(npm run lint)'] });
    expect(decision.decidedBy).toBe('allow rules "bash(npm test*)" from --test, "bash(npm run lint)" from --test');
  });

  it('says which part no allow rule covers', () => {
    expect(decide(bash('npm test && rm -rf ~'), { allow: ['bash(npm test*)'] }).decidedBy).toBe(
      'default: bash asks (no allow rule covers "rm -rf ~")',
    );
    expect(decide(bash('npm test "oops'), { allow: ['bash(npm test*)'] }).decidedBy).toContain('could not be read safely');
  });
});

describe('file tool rules', () => {
  it.each([
    [call('edit_file', { path: 'src/a.ts' }), { allow: ['edit_file(src/**)'] }, 'allow'],
    [call('edit_file', { path: './src/a.ts' }), { allow: ['edit_file(src/**)'] }, 'allow'],
    [call('edit_file', { path: `${WS}/src/a.ts` }), { allow: ['edit_file(src/**)'] }, 'allow'],
    [call('edit_file', { path: 'test/a.ts' }), { allow: ['edit_file(src/**)'] }, 'ask'],
    [call('edit_file', { path: 'src/../../etc/passwd' }), { allow: ['edit_file(src/**)'] }, 'ask'],
    [call('edit_file', { path: 'src/a.ts' }), { allow: ['write_file(src/**)'] }, 'ask'],
    [call('write_file', { path: 'notes.md' }), { allow: ['write_file'] }, 'allow'],
    [call('read_file', { path: '.env' }), { deny: ['read_file(.env*)'] }, 'deny'],
    [call('read_file', { path: 'config/.env' }), { deny: ['read_file(**/.env*)'] }, 'deny'],
    [call('read_file', { path: 'secrets/key.pem' }), { deny: ['read_file(secrets/**)'] }, 'deny'],
    [call('grep', { pattern: 'x', path: 'secrets' }), { deny: ['grep(secrets/**)'] }, 'deny'],
    [call('grep', { pattern: 'x' }), { deny: ['grep(secrets/**)'] }, 'allow'],
    [call('list_dir', {}), { ask: ['list_dir(.)'] }, 'ask'],
    [call('read_file', { path: 'src/a.ts' }), { ask: ['read_file(src/**)'], allow: ['read_file'] }, 'ask'],
    [call('read_file', { path: 7 }), { deny: ['read_file(src/**)'] }, 'deny'],
    [call('write_file', { path: 7 }), { allow: ['write_file(**)'] }, 'ask'],
    [call('web_fetch', { url: 'x' }), { allow: ['web_fetch'] }, 'allow'],
    [call('web_fetch', { url: 'x' }), { deny: ['web_fetch'], allow: ['web_fetch'] }, 'deny'],
  ] as const)('%j with %j is %s', (c, spec, expected) => {
    expect(decide(c, spec).behavior).toBe(expected);
  });
});

describe('modes against each kind of tool', () => {
  const readOnly = call('read_file', { path: 'README.md' });
  const edit = call('edit_file', { path: 'src/a.ts', old_string: 'a', new_string: 'b' });
  const editOutside = call('write_file', { path: '../elsewhere.txt', content: 'x' });
  const command = bash('npm test');
  const cases: Array<[PermissionMode, ToolCall, string, string]> = [
    ['default', readOnly, 'allow', 'default: read-only tools are allowed'],
    ['default', edit, 'ask', 'default: edit_file asks'],
    ['default', command, 'ask', 'default: bash asks'],
    ['acceptEdits', readOnly, 'allow', 'default: read-only tools are allowed'],
    ['acceptEdits', edit, 'allow', 'acceptEdits mode: file edits in the workspace are allowed'],
    ['acceptEdits', editOutside, 'ask', 'default: write_file asks'],
    ['acceptEdits', command, 'ask', 'default: bash asks'],
    ['plan', readOnly, 'allow', 'default: read-only tools are allowed'],
    ['plan', edit, 'deny', 'plan mode: only read-only tools may run'],
    ['plan', command, 'deny', 'plan mode: only read-only tools may run'],
    ['dontAsk', readOnly, 'allow', 'default: read-only tools are allowed'],
    ['dontAsk', edit, 'deny', 'dontAsk mode: would ask (default: edit_file asks)'],
    ['dontAsk', command, 'deny', 'dontAsk mode: would ask (default: bash asks)'],
    ['bypassPermissions', readOnly, 'allow', 'bypassPermissions mode: allowed (no deny rule matched)'],
    ['bypassPermissions', edit, 'allow', 'bypassPermissions mode: allowed (no deny rule matched)'],
    ['bypassPermissions', command, 'allow', 'bypassPermissions mode: allowed (no deny rule matched)'],
  ];
  it.each(cases)('%s mode: %o is %s', (mode, c, behavior, decidedBy) => {
    expect(decide(c, {}, mode)).toMatchObject({ behavior, decidedBy });
  });

  it('plan mode refuses a write with feedback for the model instead of stopping', () => {
    const decision = decide(edit, { allow: ['edit_file'] }, 'plan');
    expect(decision).toMatchObject({ behavior: 'deny', continueWithFeedback: true });
    expect(decision.message).toContain('plan mode');
    expect(decision.message).toContain('edit_file');
  });

  it('an explicit deny rule beats every mode, bypassPermissions included', () => {
    for (const mode of ['default', 'acceptEdits', 'plan', 'dontAsk', 'bypassPermissions'] as const) {
      const decision = decide(command, { deny: ['bash(npm*)'] }, mode);
      expect(decision.behavior).toBe('deny');
      expect(decision.decidedBy).toContain('deny rule "bash(npm*)"');
      expect(decision.continueWithFeedback).toBeUndefined();
    }
  });

  it('allow rules apply in dontAsk mode, and ask rules there become denials', () => {
    expect(decide(command, { allow: ['bash(npm test)'] }, 'dontAsk').behavior).toBe('allow');
    expect(decide(command, { ask: ['bash(npm*)'] }, 'dontAsk')).toMatchObject({
      behavior: 'deny',
      decidedBy: 'dontAsk mode: would ask (ask rule "bash(npm*)" from --test (matches "npm test"))',
    });
  });

  it('an ask rule beats acceptEdits and allow rules', () => {
    expect(decide(edit, { ask: ['edit_file(src/**)'], allow: ['edit_file'] }, 'acceptEdits').behavior).toBe('ask');
  });
});
