import { describe, expect, it } from 'vitest';
import { checkPermission } from '../../src/permissions/check-permission.js';
import type { PermissionMode } from '../../src/permissions/types.js';
import { bash, rules, toolOf, WS } from './helpers.js';

/** A bash redirection is a write: the file rules and protected paths judge its target like write_file's path. */

const exact = (command: string) => `bash(${command.replace(/[\\*]/g, '\\$&')})`;
const decide = (command: string, spec: Parameters<typeof rules>[0], mode: PermissionMode = 'default') =>
  checkPermission({ call: bash(command), tool: toolOf(bash(command)), mode, rules: rules(spec), workspace: WS });

describe('redirections to xagent settings are protected', () => {
  it.each([
    'echo {} > .xagent/settings.json',
    'echo {} >>\\\n.xagent/settings.local.json',
    'echo {} > ./.xagent/x',
    'echo {} > .mcp.json',
    'echo "[core] fsmonitor = x" >> .git/config',
    'cd .git/hooks && echo x > pre-commit',
    `echo {} > ${WS}/.xagent/settings.json`,
    'cd .xagent && echo {} > settings.json',
    'cd src; cd ../.xagent; echo {} > settings.json',
    'echo {} > .xag*/settings.json',
    'cd "$D" && echo {} > settings.json',
    'cd && echo {} > x',
    'echo $(echo {} > .xagent/settings.json)',
    '(echo {} > .xagent/settings.json)',
    'echo <(echo {} > .xagent/settings.json)',
  ])('%j asks even under an exact rule for it, and in acceptEdits', (command) => {
    expect(decide(command, { allow: [exact(command)] }).behavior).toBe('ask');
    expect(decide(command, { allow: [exact(command)] }, 'acceptEdits').behavior).toBe('ask');
    expect(decide(command, { allow: [exact(command)] }, 'dontAsk').behavior).toBe('deny');
  });

  it('an exact rule still allows a redirection elsewhere, and bypassPermissions lets the protected one through', () => {
    expect(decide('npm test > out.log', { allow: [exact('npm test > out.log')] }).behavior).toBe('allow');
    expect(decide('cd build && make > log.txt', { allow: ['bash(cd build)', exact('make > log.txt')] }).behavior).toBe('allow');
    expect(decide('echo {} > .xagent/settings.json', {}, 'bypassPermissions').behavior).toBe('allow');
  });

  it('inside the OS sandbox, which makes the settings read-only to bash, a redirection there runs without a prompt', () => {
    const command = 'echo {} > .xagent/settings.json';
    const sandboxed = checkPermission({
      call: bash(command),
      tool: { readOnly: false },
      mode: 'default',
      rules: [],
      workspace: WS,
      sandbox: true,
    });
    expect(sandboxed.behavior).toBe('allow');
  });
});

describe('write_file and edit_file deny and ask rules bite redirection targets', () => {
  it.each([
    ['echo x > .github/workflows/ci.yml', 'edit_file(.github/**)'],
    ['cat a >> .github/x', 'write_file(.github/**)'],
    ['echo x 2> .env', 'write_file(.env*)'],
    ['cd .github && echo x > ci.yml', 'edit_file(.github/**)'],
    ['echo x > /etc/hosts', 'write_file(/etc/**)'],
    ['echo x > .github/x', 'Edit(.github/**)'],
    ['echo x > .github/x', 'Write(/.github/**)'],
    ['echo x > ~/.bashrc', 'write_file(/**)'],
    ['echo x > "$F"', 'write_file(.github/**)'],
    ["bash -c 't>.github/x'", 'write_file(.github/**)'],
    ["eval 'echo x > .github/x'", 'write_file(.github/**)'],
    ['npm test > out.log', 'write_file'],
    // bash writes a file named CR; the parser reads the CR as half a newline.
    ['echo >>\r\n P', 'write_file(**)'],
    // The parser rejects `>&1> -`; bash writes the file `-` (found by the nightly fuzz, seed 10).
    ['ls x 2>&1> -', 'write_file(**)'],
  ])('%j is denied by %s in every mode', (command, rule) => {
    const spec = { allow: ['bash'], deny: [rule] };
    expect(decide(command, spec).behavior).toBe('deny');
    expect(decide(command, spec, 'bypassPermissions').behavior).toBe('deny');
    expect(decide(command, { allow: ['bash'], ask: [rule] }).behavior).toBe('ask');
  });

  it('leaves reads, descriptors and /dev/null alone', () => {
    const spec = { allow: ['bash'], deny: ['write_file', 'write_file(**)', 'write_file(/**)'] };
    for (const command of ['sort < in.txt', 'npm test 2>&1', 'npm test > /dev/null', 'echo x >&2', 'cat <<<hi']) {
      expect(decide(command, spec).behavior).toBe('allow');
    }
  });
});
