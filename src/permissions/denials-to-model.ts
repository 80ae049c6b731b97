import type { PermissionDecision, ToolCall } from '../../machines/types.js';
import { claudeCodeName } from './claude-tools.js';
import type { SessionPermissionPolicy } from './policy.js';

/**
 * `-p` as Claude Code runs it: a call denied by a rule or a mode, or one that would ask with nobody
 * to ask, is answered to the model as an `is_error` result saying it is not permitted and how to
 * permit it, and the task goes on (the chart's `permissionDeniedWithFeedback` route to `recover`);
 * the result lists it in `permission_denials`. A person's own answer is left as it is: their
 * "no, stop" still stops. `--stop-on-denial` does not use this wrapper (the old stop, exit 6).
 * @example const permissions = denialsToModel(policyFor(config, askPerson), { personAsks: askPerson !== undefined });
 */
export function denialsToModel(policy: SessionPermissionPolicy, { personAsks }: { personAsks: boolean }): SessionPermissionPolicy {
  return {
    get mode() {
      return policy.mode;
    },
    setMode: (mode) => policy.setMode(mode),
    addRules: (rules) => policy.addRules(rules),
    removeRule: (behavior, text) => policy.removeRule(behavior, text),
    rules: () => policy.rules(),
    decide: (call, tool) => toModel(call, policy.decide(call, tool)),
    ask: async (call, pending, signal) => {
      const decision = await policy.ask(call, pending, signal);
      return personAsks || signal.aborted ? decision : toModel(call, decision);
    },
  };
}

function toModel(call: ToolCall, decision: PermissionDecision): PermissionDecision {
  if (decision.behavior !== 'deny' || decision.continueWithFeedback) return decision;
  return { ...decision, continueWithFeedback: true, message: notPermittedMessage(call, decision) };
}

/**
 * What the model reads: the call was not run, why, and what would permit it.
 * @example notPermittedMessage(bash('rm -rf build'), deny) // 'Permission to use Bash was denied: ... add an allow rule such as "Bash(rm -rf build)" ...'
 */
export function notPermittedMessage(call: ToolCall, decision: PermissionDecision): string {
  return (
    `Permission to use ${claudeCodeName(call.name)} was denied (${decision.decidedBy}), so the call was not run. ` +
    `This run cannot ask anyone. To permit it, add an allow rule such as "${ruleFor(call)}" to .claude/settings.json ` +
    `(or pass --allowedTools "${ruleFor(call)}"), or choose another way that needs no permission.`
  );
}

function ruleFor(call: ToolCall): string {
  const input = call.input as Record<string, unknown>;
  const name = claudeCodeName(call.name);
  if (call.name === 'bash' && typeof input.command === 'string') {
    const words = input.command.trim().split(/\s+/).slice(0, 2).join(' ');
    return `Bash(${words}:*)`;
  }
  if ((call.name === 'edit_file' || call.name === 'write_file') && typeof input.path === 'string') return `Edit(${input.path})`;
  return name;
}
