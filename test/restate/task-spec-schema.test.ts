import { describe, expect, it } from 'vitest';
import { isCallAnswer } from '../../src/restate/call-answer-schema.js';
import { acceptedFromSpec, specRefusal } from '../../src/restate/spec-gate.js';
import { taskSpecOf, withDefaults, type TaskSpec } from '../../src/restate/task-spec.js';
import { checkTaskSpec } from '../../src/restate/task-spec-schema.js';

const valid = { prompt: 'fix the build', cwd: '/srv/app' };

describe('the task spec schema (what a worker takes from the ingress)', () => {
  it('takes what xagent submit sends, and a minimal spec from elsewhere', () => {
    expect(checkTaskSpec(taskSpecOf('fix it', { maxTurns: '20', allow: ['bash(npm test*)'] }, '/srv/app', {}))).toMatchObject({ ok: true });
    expect(checkTaskSpec(valid)).toEqual({ ok: true, spec: valid });
  });

  it.each([
    [{ prompt: 5 }, 'prompt', /^prompt must be string; cwd is required$/],
    [{}, 'prompt', /prompt is required; cwd is required/],
    [{ ...valid, prompt: '  ' }, 'prompt', /prompt must match/],
    [{ ...valid, cwd: 'relative/dir' }, 'cwd', /cwd must match/],
    [{ ...valid, limits: { maxTurns: -1, maxToolCalls: 5, timeoutMs: 1000 } }, 'limits.maxTurns', /limits\.maxTurns must be >= 1/],
    [{ ...valid, limits: { maxTurns: 1 } }, 'limits.maxToolCalls', /limits\.maxToolCalls is required/],
    [
      { ...valid, permissionMode: 'yolo' },
      'permissionMode',
      /permissionMode must be one of default, acceptEdits, plan, dontAsk, bypassPermissions/,
    ],
    [{ ...valid, allow: 'bash' }, 'allow', /allow must be array/],
    [{ ...valid, trust: 'yes' }, 'trust', /trust must be boolean/],
    [{ ...valid, maxThinkingTokens: 'lots' }, 'maxThinkingTokens', /maxThinkingTokens must match/],
    [{ ...valid, inspectPort: 70_000 }, 'inspectPort', /inspectPort must be <= 65535/],
    [{ ...valid, sudo: true }, 'sudo', /sudo is not a task spec field/],
    [[], '(spec)', /must be object/],
    [null, '(spec)', /must be object/],
  ])('refuses %j, naming %s', (spec, field, message) => {
    const checked = checkTaskSpec(spec);
    expect(checked.ok).toBe(false);
    if (checked.ok) return;
    expect(checked.problem.field).toBe(field);
    expect(checked.problem.message).toMatch(message);
  });

  it('fills what a minimal spec leaves out with no rules, no trust and the default limits', () => {
    const spec = withDefaults(valid);
    expect(spec).toMatchObject({ allow: [], deny: [], trust: false });
    expect(spec.limits.maxTurns).toBeGreaterThan(0);
  });
});

describe('the spec gate (--accept-from-spec)', () => {
  const base: TaskSpec = withDefaults(valid);

  it('refuses trust, bypassPermissions and allow rules from a spec by default, naming the opt-in', () => {
    const none = acceptedFromSpec([]);
    expect(specRefusal({ ...base, trust: true }, none)).toMatch(/trust: true.*--accept-from-spec trust$/);
    expect(specRefusal({ ...base, permissionMode: 'bypassPermissions' }, none)).toMatch(/--accept-from-spec bypassPermissions$/);
    expect(specRefusal({ ...base, allow: ['bash'] }, none)).toMatch(/allow rules \(bash\).*--accept-from-spec rules$/);
    expect(specRefusal({ ...base, trust: true, allow: ['bash'] }, none)).toMatch(/--accept-from-spec trust,rules$/);
  });

  it('lets through what the worker accepts, deny rules and the other modes always', () => {
    const accepted = acceptedFromSpec(['trust,bypassPermissions', 'rules']);
    expect(specRefusal({ ...base, trust: true, permissionMode: 'bypassPermissions', allow: ['bash'] }, accepted)).toBeUndefined();
    expect(specRefusal({ ...base, deny: ['bash'], permissionMode: 'plan' }, acceptedFromSpec([]))).toBeUndefined();
    expect(specRefusal({ ...base, trust: true, allow: ['bash'] }, acceptedFromSpec(['trust']))).toMatch(/--accept-from-spec rules$/);
  });

  it('names an opt-in it does not know', () => {
    expect(() => acceptedFromSpec(['trust,everything'])).toThrow(/"everything" is not one of trust, bypassPermissions, rules/);
  });
});

describe('the answer schema (what the answer handler takes)', () => {
  it('takes what approve and deny send, and nothing else', () => {
    expect(isCallAnswer({ tool_use_id: 'toolu_1', answer: { kind: 'yes' }, by: 'alice', token: 't' })).toBe(true);
    expect(isCallAnswer({ tool_use_id: 'toolu_1', answer: { kind: 'feedback', text: 'use pnpm' } })).toBe(true);
    expect(isCallAnswer({ tool_use_id: 'toolu_1', answer: { kind: 'yes' }, token: 5 })).toBe(false);
    expect(isCallAnswer({ tool_use_id: 'toolu_1', answer: { kind: 'always' } })).toBe(false);
    expect(isCallAnswer({ tool_use_id: 'toolu_1', answer: { kind: 'feedback' } })).toBe(false);
    expect(isCallAnswer({ answer: { kind: 'yes' } })).toBe(false);
  });
});
