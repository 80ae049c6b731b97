import { describe, expect, it } from 'vitest';
import { checkPermission, SANDBOX_DECIDED_BY } from '../../src/permissions/check-permission.js';
import { createPermissionPolicy } from '../../src/permissions/policy.js';
import { parseRules } from '../../src/permissions/rules.js';
import type { PermissionMode } from '../../src/permissions/types.js';

const bash = (command: string) => ({ id: '1', name: 'bash', input: { command } });
const decide = (command: string, options: { mode?: PermissionMode; rules?: ReturnType<typeof parseRules>; sandbox?: boolean } = {}) =>
  checkPermission({
    call: bash(command),
    tool: { readOnly: false },
    mode: options.mode ?? 'default',
    rules: options.rules ?? [],
    workspace: '/ws',
    sandbox: options.sandbox ?? true,
  });

describe('permissions with the sandbox on', () => {
  it('lets a bash command run without a prompt, and names the sandbox as what decided', () => {
    expect(decide('make clean && make')).toEqual({ behavior: 'allow', decidedBy: SANDBOX_DECIDED_BY });
    expect(decide('make clean && make', { sandbox: false }).behavior).toBe('ask');
  });

  it('still obeys deny rules, ask rules and plan mode', () => {
    expect(decide('rm -rf build', { rules: parseRules(['bash(rm*)'], 'deny', 'settings') }).behavior).toBe('deny');
    expect(decide('git push', { rules: parseRules(['bash(git push*)'], 'ask', 'settings') }).behavior).toBe('ask');
    expect(decide('make', { mode: 'plan' }).behavior).toBe('deny');
  });

  it('runs bash in dontAsk mode too, instead of turning the question into a denial', () => {
    expect(decide('make', { mode: 'dontAsk' })).toEqual({ behavior: 'allow', decidedBy: SANDBOX_DECIDED_BY });
  });

  it('changes nothing for the file tools: they are not inside the sandbox', () => {
    const write = { id: '2', name: 'write_file', input: { path: 'a.txt', content: 'x' } };
    expect(
      checkPermission({ call: write, tool: { readOnly: false }, mode: 'default', rules: [], workspace: '/ws', sandbox: true }).behavior,
    ).toBe('ask');
  });

  it('is what the policy decides with when the run is sandboxed', () => {
    const policy = createPermissionPolicy({ mode: 'default', rules: [], workspace: '/ws', sandbox: true });
    expect(policy.decide(bash('ls'), { readOnly: false }).decidedBy).toBe(SANDBOX_DECIDED_BY);
  });
});
