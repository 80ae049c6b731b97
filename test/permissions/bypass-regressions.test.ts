import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkPermission } from '../../src/permissions/check-permission.js';
import { createPermissionPolicy } from '../../src/permissions/policy.js';
import type { PermissionMode } from '../../src/permissions/types.js';
import { bash, call, rules, toolOf, WS } from './helpers.js';

/** Regressions from issue 18's adversarial pass: each case was a way past the rules. */

const decide = (c: ReturnType<typeof bash>, spec: Parameters<typeof rules>[0], mode: PermissionMode = 'default') =>
  checkPermission({ call: c, tool: toolOf(c), mode, rules: rules(spec), workspace: WS });

describe('issue 18.1: an allow pattern never allows a command that assembles and runs another', () => {
  it.each([
    'git status ${x:=${d:-$}(id > ../outside.txt)} ${x@P}',
    'git status ${y:=a[${d:-$}(id)]} $((y))',
    'git status $[y]',
    'git status ${PATH:y:1}',
    'git status ${!x}',
    'git status $HOME',
    "git status 'a[$(id)]'",
    'git status {a,b}',
    'git status <(id)',
    'git status <<EOF\n$(id)\nEOF',
    'PATH=/tmp git status',
  ])('asks about %j under bash(git status*)', (command) => {
    expect(decide(bash(command), { allow: ['bash(git status*)'] }).behavior).toBe('ask');
  });

  it.each(['eval git status', 'declare -i x=y', 'let x=y', 'read x', 'trap id EXIT'])('a wildcard does not allow %j', (command) => {
    expect(decide(bash(command), { allow: ['bash(*)'] }).behavior).toBe('ask');
  });

  it.each(['env git status', 'xargs rm', 'printf -v x y', 'test -v x'])(
    'a wildcard does not reach through %j, which runs or evaluates its arguments',
    (command) => {
      expect(decide(bash(command), { allow: ['bash(*)'] }).behavior).toBe('ask');
      expect(decide(bash(command), { allow: [`bash(${command})`] }).behavior).toBe('allow');
    },
  );
});

describe('issue 18.13: deny rules see through wrappers and their option values', () => {
  it.each([
    'nice -n 5 rm -rf x',
    'env X=1 rm -rf x',
    'env -u HOME rm -rf x',
    'timeout 5 rm -rf x',
    'timeout -s KILL 5 rm -rf x',
    'sudo -u root rm -rf x',
    'xargs -n 1 rm -rf',
    'nohup nice -n 5 /bin/rm -rf x',
    'find . -name x -exec rm -rf {} ;',
    "eval 'rm -rf x'",
    "bash -c 'rm -rf x'",
    'echo $(rm -rf x)',
  ])('denies %j under bash(rm*)', (command) => {
    expect(decide(bash(command), { allow: ['bash'], deny: ['bash(rm*)'] }).behavior).toBe('deny');
  });

  it('does not deny a command that only mentions rm', () => {
    expect(decide(bash('echo rm -rf x'), { allow: ['bash'], deny: ['bash(rm*)'] }).behavior).toBe('allow');
  });
});

describe('issue 18.2: the model cannot grant itself permissions through the settings files', () => {
  const write = (file: string) => call('write_file', { path: file, content: '{"permissions":{"allow":["bash"]}}' });
  it.each(['.xagent/settings.json', '.xagent/settings.local.json', './.xagent/x', '.mcp.json', `${WS}/.xagent/settings.json`])(
    'a write to %j asks in acceptEdits mode and under an allow rule',
    (file) => {
      expect(decide(write(file), {}, 'acceptEdits').behavior).toBe('ask');
      expect(decide(write(file), { allow: ['write_file', 'write_file(**)'] }).behavior).toBe('ask');
      expect(decide(call('edit_file', { path: file, old_string: 'a', new_string: 'b' }), { allow: ['edit_file'] }).behavior).toBe('ask');
    },
  );

  it('is refused in dontAsk mode, and a deny rule still wins', () => {
    expect(decide(write('.xagent/settings.json'), { allow: ['write_file'] }, 'dontAsk').behavior).toBe('deny');
    expect(decide(write('.xagent/settings.json'), { deny: ['write_file(.xagent/**)'] }, 'acceptEdits').behavior).toBe('deny');
  });

  it('is allowed only under the user-chosen bypassPermissions mode', () => {
    expect(decide(write('.xagent/settings.json'), {}, 'bypassPermissions').behavior).toBe('allow');
  });

  it('leaves other files alone', () => {
    expect(decide(write('src/.xagent.md'), {}, 'acceptEdits').behavior).toBe('allow');
  });
});

describe('issue 18.3: file rules match where a path really points', () => {
  const workspace = mkdtempSync(path.join(os.tmpdir(), 'xagent-realpath-'));
  afterAll(() => rmSync(workspace, { recursive: true, force: true }));
  mkdirSync(path.join(workspace, 'src'));
  mkdirSync(path.join(workspace, 'docs'));
  mkdirSync(path.join(workspace, '.github', 'workflows'), { recursive: true });
  symlinkSync('../.xagent', path.join(workspace, 'src', 'cfg'));
  symlinkSync('../.github', path.join(workspace, 'docs', 'gh'));
  symlinkSync('../lib/real.ts', path.join(workspace, 'src', 'dangling.ts'));
  const policy = (spec: Parameters<typeof rules>[0], mode: PermissionMode = 'default') =>
    createPermissionPolicy({ mode, rules: rules(spec), workspace });
  const edit = (file: string) => call('edit_file', { path: file, old_string: 'a', new_string: 'b' });

  it('an allow rule on src/** does not allow a write through src/cfg -> ../.xagent', () => {
    const c = call('write_file', { path: 'src/cfg/settings.json', content: '{}' });
    expect(policy({ allow: ['write_file(src/**)'] }).decide(c, toolOf(c)).behavior).toBe('ask');
  });

  it('a deny rule on .github/** bites a write through docs/gh -> ../.github', () => {
    const c = edit('docs/gh/workflows/ci.yml');
    expect(policy({ allow: ['edit_file'], deny: ['edit_file(.github/**)'] }).decide(c, toolOf(c)).behavior).toBe('deny');
  });

  it('follows a dangling link to the file it would create', () => {
    const c = call('write_file', { path: 'src/dangling.ts', content: 'x' });
    expect(policy({ allow: ['write_file(src/**)'] }).decide(c, toolOf(c)).behavior).toBe('ask');
    expect(policy({ allow: ['write_file(src/**)', 'write_file(lib/**)'] }).decide(c, toolOf(c)).behavior).toBe('allow');
  });

  it('still allows a plain path the rule names', () => {
    const c = edit('src/a.ts');
    expect(policy({ allow: ['edit_file(src/**)'] }).decide(c, toolOf(c)).behavior).toBe('allow');
  });
});

describe('issue 38: deny rules read trap bodies and the commands git -c sets up', () => {
  it.each([
    'trap "rm -rf x" EXIT',
    "trap -- 'rm -rf x' EXIT INT",
    "trap 'echo bye; rm -rf x' ERR",
    "git -c alias.x='!rm -rf x' x",
    "git -c 'alias.x=!rm -rf x' x",
    'git -C sub -c alias.X=\'!sh -c "rm -rf x"\' X',
    "git -c core.pager='rm -rf x' log",
    "git -c core.sshCommand='rm -rf x' fetch",
    "git -c diff.x.textconv='rm -rf x' diff",
  ])('denies %j under bash(rm*)', (command) => {
    expect(decide(bash(command), { allow: ['bash'], deny: ['bash(rm*)'] }).behavior).toBe('deny');
  });

  it("denies a git alias that stands for a denied git command: git -c alias.p='push --force' p under bash(git push*)", () => {
    expect(decide(bash("git -c alias.p='push --force' p"), { allow: ['bash'], deny: ['bash(git push*)'] }).behavior).toBe('deny');
  });

  it.each(["trap 'echo bye' EXIT", 'trap - EXIT', "git -c alias.st='status' st", "git -c core.pager='less -R' log"])(
    'the control: %j is not denied by bash(rm*)',
    (command) => {
      expect(decide(bash(command), { allow: ['bash'], deny: ['bash(rm*)'] }).behavior).toBe('allow');
    },
  );
});

describe('issue 38: npm options that choose where npm writes are not covered by a prefix rule', () => {
  it.each(['npm test --logs-dir=/home/u/.config', 'npm test --cache=/home/u/.bashrc.d', 'npm test --logs-dir /tmp/x'])(
    'asks about %j under bash(npm test*)',
    (command) => {
      expect(decide(bash(command), { allow: ['bash(npm test*)'] }).behavior).toBe('ask');
    },
  );
  it('the control: npm test --watch=false is still allowed', () => {
    expect(decide(bash('npm test --watch=false'), { allow: ['bash(npm test*)'] }).behavior).toBe('allow');
  });
});
