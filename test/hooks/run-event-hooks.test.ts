import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseHookSettings } from '../../src/hooks/config.js';
import { runEventHooks } from '../../src/hooks/run-event-hooks.js';
import type { HookRunReport } from '../../src/hooks/types.js';
import { tempDir } from '../support/engine-harness.js';

/**
 * The events the chart does not run itself (yet): runEventHooks is what runs them, with Claude
 * Code's matcher subjects (PreCompact's trigger, the tool of a PermissionRequest) and its answers.
 */
function setup(hooks: Record<string, unknown>) {
  const cwd = tempDir('xagent-event-hooks-');
  const reports: HookRunReport[] = [];
  const resolved = parseHookSettings(hooks, path.join(cwd, '.claude', 'settings.json'));
  const session = { sessionId: 's1', transcriptPath: null, cwd, permissionMode: 'default' };
  const signal = new AbortController().signal;
  return {
    cwd,
    reports,
    run: (options: Omit<Parameters<typeof runEventHooks>[0], 'hooks' | 'session' | 'signal' | 'report'>) =>
      runEventHooks({ hooks: resolved, session, signal, report: (r) => reports.push(r), ...options }),
  };
}

describe('runEventHooks', () => {
  it('runs PreCompact hooks whose matcher takes the trigger, with the fields on stdin', async () => {
    const { cwd, run, reports } = setup({
      PreCompact: [
        { matcher: 'auto', hooks: [{ type: 'command', command: 'cat > auto.json' }] },
        { matcher: 'manual', hooks: [{ type: 'command', command: 'touch manual-ran' }] },
      ],
    });
    await run({ event: 'PreCompact', fields: { trigger: 'auto', custom_instructions: '' } });
    expect(JSON.parse(readFileSync(path.join(cwd, 'auto.json'), 'utf8'))).toMatchObject({
      hook_event_name: 'PreCompact',
      trigger: 'auto',
      permission_mode: 'default',
    });
    expect(reports.map((r) => r.command)).toEqual(['cat > auto.json']);
  });

  it("a PermissionRequest hook answers the dialog in Claude Code's JSON: allow, or deny with a message", async () => {
    const call = { id: 'toolu_1', name: 'bash', input: { command: 'npm test' } };
    const allow = setup({
      PermissionRequest: [
        {
          matcher: 'Bash',
          hooks: [
            {
              type: 'command',
              command: `echo '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}'`,
            },
          ],
        },
      ],
    });
    expect(await allow.run({ event: 'PermissionRequest', call })).toMatchObject({ decision: 'allow' });
    const deny = setup({
      PermissionRequest: [
        {
          matcher: 'Bash',
          hooks: [
            { type: 'command', command: `echo '{"hookSpecificOutput":{"decision":{"behavior":"deny","message":"not on Fridays"}}}'` },
          ],
        },
      ],
    });
    expect(await deny.run({ event: 'PermissionRequest', call })).toMatchObject({ decision: 'block', reason: 'not on Fridays' });
    expect(await deny.run({ event: 'PermissionRequest', call: { ...call, name: 'read_file' } })).toEqual({ decision: null });
  });
});
