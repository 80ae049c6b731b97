import { describe, expect, it } from 'vitest';
import { hookLine } from '../../src/terminal/event-lines.js';
import { verdictOfCommand } from '../../src/hooks/interpret.js';

const ran = (stdout: string, exitCode = 0) => ({ exitCode, stdout, stderr: '', durationMs: 5, timedOut: false, aborted: false });

describe('a hook’s systemMessage (Claude Code’s JSON field for the user)', () => {
  it('is shown to the user, and not given to the model, when the hook lets things go on', () => {
    const verdict = verdictOfCommand('PostToolUse', ran('{"systemMessage": "lint: 2 warnings in src/a.ts"}'));
    expect(verdict).toMatchObject({ decision: null, outcome: 'ok', message: 'lint: 2 warnings in src/a.ts' });
    expect(verdict.context).toBeUndefined();
    expect(verdict.reason).toBeUndefined();
    const line = hookLine({
      type: 'hook',
      hook_event: 'PostToolUse',
      command: './lint.sh',
      exit_code: 0,
      duration_ms: 5,
      outcome: 'ok',
      message: verdict.message,
    });
    expect(line).toBe('⚑ hook PostToolUse ./lint.sh: lint: 2 warnings in src/a.ts');
  });

  it('is what the user reads for a block, while the model reads the reason', () => {
    const verdict = verdictOfCommand(
      'PreToolUse',
      ran(
        JSON.stringify({
          systemMessage: 'blocked a push to main',
          hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'push to a branch' },
        }),
      ),
    );
    expect(verdict).toMatchObject({ decision: 'block', outcome: 'denied', reason: 'push to a branch', message: 'blocked a push to main' });
  });

  it('leaves a quiet hook quiet', () => {
    expect(hookLine({ type: 'hook', hook_event: 'Stop', command: './ok.sh', exit_code: 0, duration_ms: 1, outcome: 'ok' })).toBeNull();
  });
});
