import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkPermission } from '../../src/permissions/check-permission.js';
import type { PermissionMode } from '../../src/permissions/types.js';
import { bash, rules, toolOf } from './helpers.js';

/**
 * Issue 31 (H1, H2, M3): commands that an allow rule let through while bash ran more than the
 * rule reader saw. Each form is first run in a real bash to show it does create the file, so a
 * case that stops being a real bypass fails here instead of pinning nothing; then the rules must
 * ask in default and acceptEdits modes and deny in bypassPermissions under a deny rule.
 */

const ALLOW = ['bash(echo *)', 'bash(git status*)', 'bash(npm test*)', 'bash(cat *)', 'Bash(echo:*)', 'Bash(git status:*)'];
const DENY = ['bash(touch*)', 'write_file(**)', 'write_file(/**)'];

/** `P` is the file each form creates; `~` is a throw-away home. */
const H1 = [
  // A comment ends at the newline: bash keeps the backslash in the comment and runs the next line.
  'echo hello #\\\ntouch P',
  'echo hello \\\n#x\\\ntouch P',
  'echo hi;#\\\ntouch P',
  "echo hi #it's\\\ntouch P",
  'git status #\\\ntouch P',
  // A continuation inside `$(`, `${`, `<(` or backticks still opens the substitution.
  'echo "$\\\n(touch P)"',
  'echo $\\\n(touch P)',
  'echo "$(\\\ntouch P)"',
  'echo "$\\\n{x:=$(touch P)}"',
  // The second character of `$'`, `$(` or `<<` after a continuation: the scanner reads them joined too.
  "echo $\\\n'a\\'b' \"$\\\n(touch P)\"",
  'echo "$\\\n$$\\\n(touch P)"',
  'echo <\\\n(touch P)',
  'echo "`\\\ntouch P`"',
  // A `#` right after a quote or an expansion is part of the word to bash, a comment to the parser.
  "echo 'ab'#x; touch P",
  'echo "ab"#x; touch P',
  "echo $'ab'#x; touch P",
  'git status ""#x; touch P',
  'echo $(true)#x; touch P',
  'echo ${HOME}#x; touch P',
  'echo "ab"# 2> P',
  // A continuation inside a list operator; a CR the parser took for half a newline.
  'echo hi &\\\n& touch P',
  'echo hi |\\\ntouch P',
  'echo hi \\\r\ntouch P',
];

const H2 = [
  'echo x >>\\\nP',
  'echo x >\\\nP',
  'echo x \\\n>P',
  'echo x 2\\\n>P',
  'echo x >\\\n|P',
  'echo x &\\\n>P',
  'echo x >\\\n&P',
  'echo x > "\\\nP"',
  'echo $(echo x >\\\nP)',
  '(echo x >\\\nP)',
  'echo <(echo x >\\\nP)',
  'cat <<EOF >\\\nP\nhi\nEOF',
  'echo x >>\\\n~/P',
];

const root = mkdtempSync(path.join(os.tmpdir(), 'xagent-issue31-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let runs = 0;

/** Runs the command as the bash tool does (`bash -c`) in a fresh directory; true if it created P there or in ~. */
function createsFile(command: string, setup?: (dir: string) => void): boolean {
  const dir = path.join(root, `run${++runs}`);
  const home = path.join(dir, 'home');
  mkdirSync(home, { recursive: true });
  setup?.(dir);
  spawnSync('bash', ['-c', command], { cwd: dir, env: { PATH: process.env.PATH, HOME: home }, input: '', timeout: 30_000 });
  return existsSync(path.join(dir, 'P')) || existsSync(path.join(home, 'P'));
}

const decide = (command: string, mode: PermissionMode, spec: Parameters<typeof rules>[0]) =>
  checkPermission({ call: bash(command), tool: toolOf(bash(command)), mode, rules: rules(spec), workspace: '/ws' });

describe.each([
  ['H1: one harmless command to the reader, two to bash', H1],
  ['H2: a redirection after a line continuation', H2],
])('issue 31 %s', (_title, forms) => {
  it.each(forms)('%j: bash does create the file', (command) => {
    expect(createsFile(command)).toBe(true);
  });

  it.each(forms)('%j: asks in default and acceptEdits modes under wildcard allow rules', (command) => {
    expect(decide(command, 'default', { allow: ALLOW }).behavior).toBe('ask');
    expect(decide(command, 'acceptEdits', { allow: ALLOW }).behavior).toBe('ask');
    expect(decide(command, 'dontAsk', { allow: ALLOW }).behavior).toBe('deny');
  });

  it.each(forms)('%j: is denied in bypassPermissions mode by a deny rule', (command) => {
    expect(decide(command, 'bypassPermissions', { deny: DENY }).behavior).toBe('deny');
  });
});

describe('issue 31 M3: options that load code are evaluated, not matched', () => {
  it('npm test --node-options=--require runs any code: bash does create the file', () => {
    const setup = (dir: string) => {
      writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'x', scripts: { test: 'node -e 0' } }));
      writeFileSync(path.join(dir, 'evil.cjs'), "require('fs').writeFileSync('P', '')");
    };
    expect(createsFile('npm test --node-options=--require=./evil.cjs', setup)).toBe(true);
  }, 60_000);

  it('git diff --output writes any file: bash does create it', () => {
    const setup = (dir: string) => {
      spawnSync('git', ['init', '-q', dir]);
    };
    expect(createsFile('git diff --output=P', setup)).toBe(true);
  });

  it('a glob can expand to such an option: sort * beside a file named -oP writes P', () => {
    expect(createsFile('sort *', (dir) => writeFileSync(path.join(dir, '-oP'), ''))).toBe(true);
  });

  it.each([
    ['sort *', 'bash(sort *)'],
    ['git diff -- *', 'bash(git diff*)'],
    ['sort -- "-"*', 'bash(sort *)'],
    ['sort --out*', 'bash(sort *)'],
    ['npm test --node-options=--import=data:text/javascript,x', 'bash(npm test*)'],
    ['npm test --node-options=--require=./evil.cjs', 'bash(npm test*)'],
    ['npm test --node_options=x', 'bash(npm test*)'],
    ['npm test --node-options=x', 'Bash(npm test:*)'],
    ['git diff --output=x', 'Bash(git diff:*)'],
    ['npm test --node-opt=x', 'bash(npm test*)'],
    ['npm test --script-shell=/tmp/evil', 'bash(npm test*)'],
    ['npm test --prefix /tmp/other', 'bash(npm test*)'],
    ['npm test --userconfig=/tmp/npmrc', 'bash(npm test*)'],
    ['npm test -- --config=/tmp/evil.config.js', 'bash(npm test*)'],
    ['npm run lint -- --require ./evil.js', 'bash(npm run lint*)'],
    ['npx vitest --config /tmp/evil.js', 'bash(npx vitest*)'],
    ['node --require ./evil.js script.js', 'bash(node *)'],
    ['node -e "require(1)"', 'bash(node *)'],
    ['node -pe 1', 'bash(node *)'],
    ['git diff --output=/home/u/.bashrc', 'bash(git diff*)'],
    ['git diff --outp=x', 'bash(git diff*)'],
    ['git log --ext-diff', 'bash(git log*)'],
    ['git grep -Ovim x', 'bash(git grep*)'],
    ['git -c core.fsmonitor=/tmp/x status', 'bash(git *)'],
    ['git -C /tmp/other status', 'bash(git *)'],
    ['git --git-dir=/tmp/x status', 'bash(git *)'],
    ['git --exec-path=/tmp status', 'bash(git *)'],
    ['env -S "touch P"', 'bash(env *)'],
    ['make SHELL=/tmp/evil', 'bash(make*)'],
    ['python -m pytest -p evil', 'bash(python -m pytest*)'],
    ['pytest --basetemp=/home/u', 'bash(pytest*)'],
    ['go test -toolexec=/tmp/x ./...', 'bash(go test*)'],
    ['sort -o /home/u/.bashrc x', 'bash(sort *)'],
    ['tar -xf a.tar --to-command=sh', 'bash(tar *)'],
    ['cargo test --config target.x.runner=sh', 'bash(cargo test*)'],
  ])('%j asks under %s', (command, rule) => {
    expect(decide(command, 'default', { allow: [rule] }).behavior).toBe('ask');
    expect(decide(command, 'acceptEdits', { allow: [rule] }).behavior).toBe('ask');
    // Only an exact rule names it (and, as for `bash -c`, the command a git setting runs needs its own: issue 38).
    const exact = `bash(${command.replace(/[\\*]/g, '\\$&')})`;
    const runs = command.includes('core.fsmonitor=') ? ['bash(/tmp/x)'] : [];
    expect(decide(command, 'default', { allow: [exact, ...runs] }).behavior).toBe('allow');
  });

  it.each([
    ['npm test', 'bash(npm test*)'],
    ['npm test -- --watch', 'bash(npm test*)'],
    ['npm test --silent', 'bash(npm test*)'],
    ['npm run lint -- --fix', 'bash(npm run lint*)'],
    ['git status --short', 'bash(git status*)'],
    ['git diff --stat HEAD~1', 'bash(git diff*)'],
    ['git log --oneline -n 5', 'bash(git log*)'],
    ['git diff --no-ext-diff', 'bash(git diff*)'],
    ['go test -count=1 -run TestX ./...', 'bash(go test*)'],
    ['pytest -q tests/', 'bash(pytest*)'],
    ['make test', 'bash(make*)'],
    ["git log --grep='fix*'", 'bash(git log*)'],
    ['ls *.ts', 'bash(ls *)'],
    ['npm test -- src/*.test.ts', 'bash(npm test*)'],
    ['sort data/*.csv', 'bash(sort *)'],
  ])('plain options still match: %j under %s', (command, rule) => {
    expect(decide(command, 'default', { allow: [rule] }).behavior).toBe('allow');
  });

  it('a deny rule still bites such a call in bypassPermissions mode', () => {
    const command = 'npm test --node-options=--require=./evil.cjs';
    expect(decide(command, 'bypassPermissions', { deny: ['bash(npm test --node-options*)'] }).behavior).toBe('deny');
  });
});
