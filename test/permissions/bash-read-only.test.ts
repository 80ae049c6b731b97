import { describe, expect, it } from 'vitest';
import { checkPermission } from '../../src/permissions/check-permission.js';
import { READ_ONLY_COMMANDS } from '../../src/permissions/bash-read-only.js';
import { bash, rules, toolOf, WS } from './helpers.js';
import { readFileSync } from 'node:fs';

/** Issue 39: read-only commands run without a rule, as in Claude Code; anything that writes or runs code still asks. */
const decide = (command: string, spec: Parameters<typeof rules>[0] = {}, mode: 'default' | 'plan' | 'dontAsk' = 'default') => {
  const c = bash(command);
  return checkPermission({ call: c, tool: toolOf(c), mode, rules: rules(spec), workspace: WS });
};

describe('read-only bash commands run without a rule', () => {
  it.each([
    'ls',
    'ls -la src',
    'grep -r x .',
    'git status',
    "find . -name '*.ts'",
    'pwd',
    'echo hello',
    'cat README.md | head -5',
    'git log --oneline -5',
    'git diff HEAD~1 -- src',
    'wc -l src/*.ts',
    'ls > /dev/null 2>&1',
    'date +%Y-%m-%d',
    'git branch -a',
    'sort -n data.txt',
    'rg TODO src',
  ])('%s', (command) => {
    const decision = decide(command);
    expect(decision.behavior).toBe('allow');
    expect(decision.decidedBy).toMatch(/read-only commands run without a rule/);
  });

  it.each([
    ['find . -delete', /ask/],
    ['find . -name x -exec rm {} ;', /ask/],
    ['ls > f', /ask/],
    ['echo $(rm x)', /ask/],
    ['echo hi >> notes.txt', /ask/],
    ['ls && rm -rf build', /ask/],
    ['sort -o out.txt in.txt', /ask/],
    ['sort -no out.txt in.txt', /ask/],
    ['uniq in.txt out.txt', /ask/],
    ['date -s "2020-01-01"', /ask/],
    ['git branch feature', /ask/],
    ['git -c core.pager=sh log', /ask/],
    ['git push', /ask/],
    ['git diff --output=patch.txt', /ask/],
    ['rg --pre ./run.sh x', /ask/],
    ['hostname evil', /ask/],
    ['/tmp/ls', /ask/],
    ['tree -o listing.txt', /ask/],
    ['find . *', /ask/],
    ['cat <(rm x)', /ask/],
  ])('%s still asks', (command) => {
    expect(decide(command).behavior).toBe('ask');
  });

  it('a deny or ask rule still wins over a read-only command', () => {
    expect(decide('cat .env', { deny: ['bash(cat .env)'] }).behavior).toBe('deny');
    expect(decide('git status', { ask: ['Bash(git status)'] }).behavior).toBe('ask');
  });

  it('an allow rule and read-only commands cover a command together', () => {
    const decision = decide('npm test 2>&1 | tail -20', { allow: ['Bash(npm test:*)'] });
    expect(decision.behavior).toBe('allow');
    expect(decision.decidedBy).toMatch(/npm test:\*.*and read-only "tail -20"/);
    expect(decide('npm test && rm x', { allow: ['Bash(npm test:*)'] }).behavior).toBe('ask');
  });

  it('plan mode lets read-only commands run and still refuses the rest', () => {
    expect(decide('git log -3', {}, 'plan').behavior).toBe('allow');
    expect(decide('rm x', {}, 'plan')).toMatchObject({ behavior: 'deny', continueWithFeedback: true });
  });

  it('dontAsk mode runs them too', () => {
    expect(decide('ls', {}, 'dontAsk').behavior).toBe('allow');
    expect(decide('touch x', {}, 'dontAsk').behavior).toBe('deny');
  });

  it('the README lists every read-only command the reader knows', () => {
    const readme = readFileSync('README.md', 'utf8');
    const section = readme.slice(readme.indexOf('### Read-only commands'));
    for (const name of Object.keys(READ_ONLY_COMMANDS)) expect(section).toContain(`\`${name}\``);
  });
});
