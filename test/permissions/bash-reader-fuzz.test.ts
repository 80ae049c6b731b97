import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkPermission } from '../../src/permissions/check-permission.js';
import { seededRandom } from '../support/random.js';
import { bash, rules, toolOf } from './helpers.js';

/**
 * Issue 18's property: a command that an allow pattern lets through does nothing its literal
 * words do not say. Seeded commands (an allowed prefix plus random shell constructs, many of
 * them ways to run `touch` in disguise) are judged by the rule reader; every allowed one then
 * runs under a real bash in a throw-away directory, which must stay empty: none of the allowed
 * prefixes creates a file, and file-writing redirections are allowed only by exact rules.
 */

type Random = ReturnType<typeof seededRandom>;

const PREFIXES = ['echo', 'echo -n', 'ls', 'true', 'git status'];
const RULES = { allow: ['bash(echo*)', 'bash(ls*)', 'bash(true*)', 'bash(git status*)'] };
const PAYLOADS = [
  '$(touch P)',
  '`touch P`',
  '"$(touch P)"',
  '${x:=$(touch P)}',
  '${x:-$(touch P)}',
  '$((a[$(touch P)]))',
  '$[a[$(touch P)]]',
  '${x:=${d:-$}(touch P)}${x@P}',
  '${y:=a[${d:-$}(touch P)]}$((y))',
  '<(touch P)',
  '>(touch P)',
  '> P',
  '>> P',
  '&> P',
  '2> P',
  '>| P',
  '<> P',
  '>P',
  '2>P',
  '{fd}>P',
  '; touch P',
  '&& touch P',
  '|| touch P',
  '| touch P',
  '& touch P',
  '\ntouch P',
  '<<EOF\n$(touch P)\nEOF\n',
  '<<< "$(touch P)"',
  "'a[$(touch P)]'",
  'x=$(touch P)',
  '(touch P)',
  '{ touch P; }',
  'if true; then touch P; fi',
  '| xargs touch',
  '; eval touch P',
  '; env touch P',
  '$(eval touch P)',
  '"`touch P`"',
  '$( (touch P) )',
  '${!x}',
  'a$(touch P)b',
  '\\$(touch P)',
  "$'\\x24(touch P)'",
  '"\\$(touch P)"',
  '$"$(touch P)"',
  '`echo touch P`',
  '${PATH:$(touch P):1}',
  '$(($(touch P)))',
];
const HARMLESS = [
  'hi',
  '-la',
  "'a b'",
  '"a b"',
  'a\\ b',
  '\\;',
  '*',
  '?',
  '[ab]',
  '{a,b}',
  '~',
  'a=b',
  '$HOME',
  '"$HOME"',
  "'$(touch P)'",
  '# comment',
  '2>&1',
  '>/dev/null',
  '2>/dev/null',
  '--',
  '-',
  '.',
  'x\\',
  '"',
  "'",
  '(',
  ')',
  '{',
  '}',
  '\\',
  '$',
  '`',
  ';',
];

function command(r: Random): string {
  let text = r.pick(PREFIXES);
  const count = 1 + Math.floor(r.next() * 4);
  for (let i = 0; i < count; i++) {
    const piece = r.next() < 0.5 ? r.pick(PAYLOADS) : r.pick(HARMLESS);
    text += r.next() < 0.85 ? ` ${piece}` : piece;
  }
  return text;
}

const allowed = (text: string) =>
  checkPermission({ call: bash(text), tool: toolOf(bash(text)), mode: 'default', rules: rules(RULES), workspace: '/ws' }).behavior ===
  'allow';

/** Runs each command in its own empty directory under one bash; returns the indexes whose directory is not empty. */
function runAll(root: string, commands: readonly string[]): number[] {
  const lines = commands.map((text, i) => {
    mkdirSync(path.join(root, `d${i}`));
    writeFileSync(path.join(root, `c${i}`), text);
    return `(cd "$R/d${i}" && eval "$(cat "$R/c${i}")") </dev/null >/dev/null 2>&1`;
  });
  const result = spawnSync('bash', ['-c', lines.join('\n')], { env: { PATH: process.env.PATH, HOME: root, R: root }, timeout: 120_000 });
  expect(result.error).toBeUndefined();
  return commands.map((_, i) => i).filter((i) => readdirSync(path.join(root, `d${i}`)).length > 0);
}

describe('the bash rule reader under a real bash', () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'xagent-fuzz-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('never allows a generated command that creates a file (3,000 seeded cases)', () => {
    const r = seededRandom(18);
    const commands = Array.from({ length: 3000 }, () => command(r));
    const allow = commands.filter(allowed);
    const ask = commands.filter((text) => !allowed(text));
    // Not vacuous: plenty are allowed, and the asked ones include real ways to create a file.
    expect(allow.length).toBeGreaterThan(300);

    const allowRoot = path.join(root, 'allowed');
    mkdirSync(allowRoot);
    const created = runAll(allowRoot, allow).map((i) => allow[i]);
    expect(created).toEqual([]);
    expect(readdirSync(root)).toEqual(['allowed']);

    const askRoot = path.join(root, 'asked');
    mkdirSync(askRoot);
    const sample = ask.slice(0, 400);
    expect(runAll(askRoot, sample).length).toBeGreaterThan(100);
  }, 240_000);
});
