import { describe, expect, it } from 'vitest';
import { HookConfigError, parseHookSettings, resolveHooks } from '../../src/hooks/config.js';
import { compileMatcher, matchesTool } from '../../src/hooks/matcher.js';

describe('hook matchers', () => {
  it('an exact name matches only that tool, not one that starts with it', () => {
    const m = compileMatcher('bash');
    expect(matchesTool(m, 'bash')).toBe(true);
    expect(matchesTool(m, 'bash_extra')).toBe(false);
    expect(matchesTool(m, 'mybash')).toBe(false);
  });

  it('a|b takes either tool, a regex takes what it matches as a whole', () => {
    expect(matchesTool(compileMatcher('bash|edit_file'), 'edit_file')).toBe(true);
    expect(matchesTool(compileMatcher('bash|edit_file'), 'write_file')).toBe(false);
    expect(matchesTool(compileMatcher('mcp__fs__.*'), 'mcp__fs__read')).toBe(true);
    expect(matchesTool(compileMatcher('.*_file'), 'read_file')).toBe(true);
    expect(matchesTool(compileMatcher('.*_file'), 'read_file_x')).toBe(false);
  });

  it('empty, * and a missing matcher take every tool', () => {
    for (const matcher of [undefined, '', '*', '  ']) expect(matchesTool(compileMatcher(matcher), 'anything')).toBe(true);
  });

  it('matching is case-sensitive, as tool names are', () => {
    expect(matchesTool(compileMatcher('BASH'), 'bash')).toBe(false);
  });

  it("matches Claude Code's tool names as well as xagent's", () => {
    expect(matchesTool(compileMatcher('Bash'), 'bash')).toBe(true);
    expect(matchesTool(compileMatcher('Write|Edit'), 'edit_file')).toBe(true);
    expect(matchesTool(compileMatcher('Write|Edit'), 'write_file')).toBe(true);
    expect(matchesTool(compileMatcher('Write|Edit'), 'read_file')).toBe(false);
    expect(matchesTool(compileMatcher('Read'), 'read_file')).toBe(true);
  });
});

describe('hooks config', () => {
  const file = '/ws/.xagent/settings.json';

  it('resolves every hook of every group with its event, matcher and source', () => {
    const hooks = parseHookSettings(
      {
        PreToolUse: [
          {
            matcher: 'bash',
            hooks: [
              { type: 'command', command: 'a' },
              { type: 'command', command: 'b', timeout: 5 },
            ],
          },
        ],
        Stop: [{ hooks: [{ type: 'command', command: 'c' }] }],
      },
      file,
    );
    expect(hooks.map((h) => [h.event, h.matcher?.source ?? null, h.hook.type === 'command' ? h.hook.command : '', h.source])).toEqual([
      ['PreToolUse', '^(?:bash)$', 'a', file],
      ['PreToolUse', '^(?:bash)$', 'b', file],
      ['Stop', null, 'c', file],
    ]);
  });

  it.each([
    [[], '"hooks" must be an object'],
    [{ PreToolUse: {} }, '"hooks.PreToolUse" must be a list'],
    [{ PreToolUse: [{ matcher: 3, hooks: [] }] }, 'hooks.PreToolUse[0].matcher must be a string'],
    [{ PreToolUse: [{ matcher: '[', hooks: [] }] }, 'hooks.PreToolUse[0].matcher is not a valid regular expression'],
    [{ Stop: [{ hooks: [{ type: 'function', command: 'x' }] }] }, 'hooks.Stop[0].hooks[0].type must be "command"'],
    [{ Stop: [{ hooks: [{ type: 'command', command: 'x', timeout: '5' }] }] }, 'timeout must be a number of seconds'],
    [{ OnSave: [] }, 'unknown hook event "hooks.OnSave"'],
  ])('refuses %j with a message that says where', (value, message) => {
    expect(() => parseHookSettings(value, file)).toThrow(HookConfigError);
    expect(() => parseHookSettings(value, file)).toThrow(message);
  });

  it("skips Claude Code's events and hook types that xagent does not run, with a warning each, and keeps the rest", () => {
    const warnings: string[] = [];
    const hooks = parseHookSettings(
      {
        PostToolUseFailure: [{ hooks: [{ type: 'command', command: 'x' }] }],
        Stop: [
          {
            hooks: [
              { type: 'prompt', prompt: 'done?' },
              { type: 'command', command: 'ok' },
            ],
          },
        ],
      },
      file,
      (w) => warnings.push(w),
    );
    expect(hooks.map((h) => [h.event, h.hook.type === 'command' ? h.hook.command : ''])).toEqual([['Stop', 'ok']]);
    expect(warnings).toEqual([
      '"hooks.PostToolUseFailure" is a Claude Code event that xagent does not run; skipped',
      'hooks.Stop[0].hooks[0] is a "prompt" hook, which xagent does not run; skipped',
    ]);
  });

  it('accepts SessionEnd and the events that wait for the chart, warning about those that do not run yet', () => {
    const warnings: string[] = [];
    const hooks = parseHookSettings(
      { SessionEnd: [{ hooks: [{ type: 'command', command: 'a' }] }], PreCompact: [{ hooks: [{ type: 'command', command: 'b' }] }] },
      file,
      (w) => warnings.push(w),
    );
    expect(hooks.map((h) => h.event)).toEqual(['SessionEnd', 'PreCompact']);
    expect(warnings).toEqual(['"hooks.PreCompact" is accepted, but xagent does not run PreCompact hooks yet']);
  });

  it('takes function hooks only from code', () => {
    const hooks = resolveHooks({ PostToolUse: [{ matcher: 'echo', hooks: [{ type: 'function', callback: () => ({}) }] }] }, 'query()');
    expect(hooks).toHaveLength(1);
    expect(() => resolveHooks({ Stop: [{ hooks: [{ type: 'function', callback: 'no' as never }] }] }, 'query()')).toThrow(
      'callback must be a function',
    );
  });
});
