import { describe, expect, it } from 'vitest';
import type { ToolCall } from '../../machines/types.js';
import { checkPermission } from '../../src/permissions/check-permission.js';
import { allowCover } from '../../src/permissions/match-rule.js';
import { parseRules, type PermissionRule } from '../../src/permissions/rules.js';
import { PERMISSION_MODES, type PermissionMode } from '../../src/permissions/types.js';
import { bash, call, toolOf, WS } from './helpers.js';
import { seededRandom } from '../support/random.js';

type Random = ReturnType<typeof seededRandom>;

const SIMPLE = [
  'npm test',
  'npm test --watch',
  'rm -rf ~',
  'git push --force',
  'git status',
  'ls -la',
  'echo hi',
  'cat a.txt',
  '"rm" x',
  'FOO=1 rm y',
];
const JOINS = [' && ', ' || ', '; ', ' | ', ' & ', '\n'];
const PATHS = ['src/a.ts', './src/b/c.ts', 'README.md', 'docs/x.md', '.env', '../outside.txt', `${WS}/src/d.ts`, '.', 'secrets/key.pem'];
const RULES = [
  'bash',
  'bash(npm test*)',
  'bash(rm*)',
  'bash(git *)',
  'bash(git push*)',
  'bash(echo*)',
  'bash(*)',
  'bash(ls -la)',
  'read_file',
  'read_file(src/**)',
  'read_file(.env*)',
  'edit_file(src/**)',
  'edit_file',
  'write_file(*.md)',
  'write_file',
  'grep',
  'list_dir(.)',
  'glob(**)',
];

function command(r: Random, depth = 0): string {
  const parts = [r.pick(SIMPLE), ...r.some(SIMPLE, 2)];
  return parts
    .map((part) => {
      const roll = r.next();
      if (depth < 2 && roll < 0.1) return `echo $(${command(r, depth + 1)})`;
      if (depth < 2 && roll < 0.15) return `(${command(r, depth + 1)})`;
      if (roll < 0.2) return `echo "${part}"`;
      return part;
    })
    .reduce((acc, part) => `${acc}${r.pick(JOINS)}${part}`);
}

function toolCall(r: Random): ToolCall {
  const kind = r.pick(['bash', 'read_file', 'edit_file', 'write_file', 'grep', 'list_dir', 'web_fetch'] as const);
  if (kind === 'bash') return bash(command(r));
  if (kind === 'web_fetch') return call(kind, { url: 'https://example.com' });
  return call(kind, { path: r.pick(PATHS), content: 'x', old_string: 'a', new_string: 'b', pattern: 'x' });
}

function ruleSet(r: Random): PermissionRule[] {
  return [
    ...parseRules(r.some(RULES, 4), 'allow', 'allow-src'),
    ...parseRules(r.some(RULES, 2), 'deny', 'deny-src'),
    ...parseRules(r.some(RULES, 2), 'ask', 'ask-src'),
  ];
}

const RUNS = 3000;

function forAll(property: (c: ToolCall, rules: PermissionRule[], mode: PermissionMode, r: Random) => void) {
  for (let seed = 1; seed <= RUNS; seed++) {
    const r = seededRandom(seed);
    const c = toolCall(r);
    const rules = ruleSet(r);
    const mode = r.pick(PERMISSION_MODES);
    try {
      property(c, rules, mode, r);
    } catch (error) {
      throw new Error(
        `seed ${seed}: ${JSON.stringify({ call: c, rules: rules.map((x) => `${x.behavior} ${x.text}`), mode })}\n${(error as Error).message}`,
      );
    }
  }
}

const decide = (c: ToolCall, rules: readonly PermissionRule[], mode: PermissionMode) =>
  checkPermission({ call: c, tool: toolOf(c), mode, rules, workspace: WS });

describe('checkPermission over random calls, rule sets and modes', () => {
  it('a matching deny rule always wins, whatever else is configured', () => {
    forAll((c, rules, mode) => {
      const withDeny = [...rules, ...parseRules([c.name], 'deny', 'the-deny')];
      const decision = decide(c, withDeny, mode);
      expect(decision.behavior).toBe('deny');
      expect(decision.decidedBy).toMatch(/^deny rule /);
    });
  });

  it('bypassPermissions never asks, and denies only by a deny rule', () => {
    forAll((c, rules) => {
      const decision = decide(c, rules, 'bypassPermissions');
      expect(decision.behavior).not.toBe('ask');
      if (decision.behavior === 'deny') expect(decision.decidedBy).toMatch(/^deny rule .* from deny-src/);
    });
  });

  it('dontAsk never asks', () => {
    forAll((c, rules) => expect(decide(c, rules, 'dontAsk').behavior).not.toBe('ask'));
  });

  it('plan mode never allows a tool that is not read-only (nor a bash command with a part that is not)', () => {
    forAll((c, rules) => {
      const readOnlyCommand = c.name === 'bash' && 'rules' in allowCover([], c, WS);
      if (!toolOf(c).readOnly && !readOnlyCommand) expect(decide(c, rules, 'plan').behavior).toBe('deny');
    });
  });

  it('adding allow rules never lifts a denial by a deny rule or by plan mode', () => {
    forAll((c, rules, mode, r) => {
      const before = decide(c, rules, mode);
      // dontAsk's denials are "nobody to ask", which an allow rule rightly answers.
      if (before.behavior !== 'deny' || before.decidedBy.startsWith('dontAsk')) return;
      const more = [...rules, ...parseRules(r.some(RULES, 4), 'allow', 'more')];
      expect(decide(c, more, mode).behavior).toBe('deny');
    });
  });

  it('a bash command is allowed by rules only if each of its parts alone would be', () => {
    forAll((_c, rules, mode, r) => {
      if (mode === 'bypassPermissions') return;
      const left = r.pick(SIMPLE);
      const right = r.pick(SIMPLE);
      const compound = decide(bash(`${left}${r.pick(JOINS)}${right}`), rules, mode);
      if (compound.behavior === 'allow') {
        expect(decide(bash(left), rules, mode).behavior).toBe('allow');
        expect(decide(bash(right), rules, mode).behavior).toBe('allow');
      }
      const substituted = decide(bash(`echo $(${right})`), rules, mode);
      if (substituted.behavior === 'allow') expect(decide(bash(right), rules, mode).behavior).toBe('allow');
    });
  });

  it('every decision says what decided it, is repeatable and leaves its inputs alone', () => {
    forAll((c, rules, mode) => {
      const snapshot = JSON.stringify({ c, rules });
      const decision = decide(c, rules, mode);
      expect(decision.decidedBy.length).toBeGreaterThan(0);
      if (decision.behavior === 'deny') expect(decision.message).toBeTruthy();
      expect(decide(c, rules, mode)).toEqual(decision);
      expect(JSON.stringify({ c, rules })).toBe(snapshot);
    });
  });
});
