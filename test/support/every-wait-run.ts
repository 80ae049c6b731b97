import type { HooksConfig } from '../../src/hooks/index.js';
import { policy } from './engine-harness.js';

/**
 * A run that waits on everything the chart can wait on: a PreToolUse hook, the person's answer,
 * a compaction (the first answer fills the window past the threshold) and a Stop hook that sends
 * the model back once. The engine test and the inspector's browser test both run it.
 */
const echo = { type: 'tool_use' as const, id: 'toolu_1', name: 'echo', input: { text: 'hi' } };

/** The script; each wait takes `waitMs` (a page that draws once a frame needs to see it). */
export function everyWaitScript(waitMs = 0) {
  return [
    // The answer fills the window past the threshold: the next request waits for a summary first.
    { content: [{ type: 'text' as const, text: 'Echoing.' }, echo], usage: { input_tokens: 900, output_tokens: 10 } },
    { text: 'Summary: the user asked for an echo; it said hi.', delay_ms: waitMs },
    { text: 'All done.' },
    { text: 'All done, really.' },
  ];
}

const after = <T>(ms: number, value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));

/** The hooks (each takes `waitMs` to answer), the person (`waitMs` too) and the small window. */
export function everyWaitOptions(waitMs = 20) {
  let stops = 0;
  const hooks: HooksConfig = {
    PreToolUse: [{ matcher: 'echo', hooks: [{ type: 'function', callback: () => after(waitMs, {}) }] }],
    // The first Stop sends the model back to work once.
    Stop: [
      {
        hooks: [
          {
            type: 'function',
            callback: () => after(waitMs, stops++ === 0 ? { decision: 'block' as const, reason: 'check once more' } : {}),
          },
        ],
      },
    ],
  };
  const permissions = policy(
    () => ({ behavior: 'ask', decidedBy: 'test: ask' }),
    () => after(waitMs, { behavior: 'allow' as const, decidedBy: 'the person: yes' }),
  );
  return { hooks, permissions, contextWindow: 1000 };
}
