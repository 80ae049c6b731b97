import { describe, expect, it } from 'vitest';
import type { HooksConfig } from '../../src/hooks/index.js';
import { runTask } from '../support/engine-harness.js';
import { everyWaitOptions, everyWaitScript } from '../support/every-wait-run.js';

/**
 * PreCompact and Notification hooks listen, as in Claude Code: PreCompact before an automatic
 * summary (trigger `auto`), Notification when the person is asked (`permission_prompt`). Each run
 * is a `hook` line of the trace, like the chart's own hook events.
 */
describe('hooks that listen: PreCompact and Notification', () => {
  it('runs PreCompact before the summary and Notification when the dialog opens, with Claude Code fields', async () => {
    const heard: Array<Record<string, unknown>> = [];
    const listen = (input: Record<string, unknown>) => {
      heard.push(input);
      return {};
    };
    const options = everyWaitOptions();
    const hooks: HooksConfig = {
      ...options.hooks,
      PreCompact: [{ hooks: [{ type: 'function', callback: (input) => listen(input as unknown as Record<string, unknown>) }] }],
      Notification: [{ hooks: [{ type: 'function', callback: (input) => listen(input as unknown as Record<string, unknown>) }] }],
    };
    const run = await runTask(everyWaitScript(), { ...options, hooks });
    expect(run.result.reason).toBe('final_answer');
    expect(heard.map((h) => h.hook_event_name)).toEqual(['Notification', 'PreCompact']);
    expect(heard[0]).toMatchObject({ notification_type: 'permission_prompt', message: expect.stringContaining('permission') });
    expect(heard[1]).toMatchObject({ trigger: 'auto' });
    const logged = run.log.filter((l) => l.event === 'hook').map((l) => l.hook_event);
    expect(logged).toContain('Notification');
    expect(logged).toContain('PreCompact');
  });
});
