import type { PermissionDecision, ToolCall } from '../../machines/types.js';
import { checkPermission } from './check-permission.js';
import { realPathInput } from './real-path.js';
import type { PermissionPrompt } from './types.js';
import type { PermissionRule } from './rules.js';
import type { PermissionMode, PermissionPolicy } from './types.js';

export interface PermissionPolicyOptions {
  mode: PermissionMode;
  rules: readonly PermissionRule[];
  /** Absolute workspace root. */
  workspace: string;
  /** Who answers `ask`; without one (no TTY), every `ask` is a denial. */
  prompt?: PermissionPrompt;
  /** bash runs inside the OS sandbox, so it needs no prompt (deny and ask rules still apply). */
  sandbox?: boolean;
}

export interface SessionPermissionPolicy extends PermissionPolicy {
  /** The rules in force, including the ones "always" added during this session. */
  rules(): readonly PermissionRule[];
  /** The mode in force now; the terminal UI changes it for the session (Shift-Tab, "don't ask again" on an edit). */
  readonly mode: PermissionMode;
  setMode(mode: PermissionMode): void;
  /** Adds rules for the rest of the session (/permissions add). */
  addRules(rules: readonly PermissionRule[]): void;
  /** Removes the rule with this text and behaviour, for the rest of the session; false when there is none. */
  removeRule(behavior: PermissionRule['behavior'], text: string): boolean;
}

/**
 * The engine's view of permissions: `decide` is `checkPermission` over the current rules, `ask`
 * puts the question to the prompt, and rules saved by "always" apply at once.
 * @example
 * const { rules, mode } = loadSettings({ workspace, allow: opts.allow, deny: opts.deny });
 * const policy = createPermissionPolicy({ mode: opts.permissionMode ?? mode ?? 'default', rules, workspace,
 *   prompt: process.stdin.isTTY ? createTerminalPrompt({ input: process.stdin, output: process.stderr, workspace }) : undefined });
 */
export function createPermissionPolicy({
  mode,
  rules,
  workspace,
  prompt,
  sandbox = false,
}: PermissionPolicyOptions): SessionPermissionPolicy {
  const current: PermissionRule[] = [...rules];
  let currentMode = mode;
  return {
    get mode() {
      return currentMode;
    },
    setMode: (next) => {
      currentMode = next;
    },
    addRules: (added) => {
      current.push(...added);
    },
    removeRule: (behavior, text) => {
      const index = current.findIndex((rule) => rule.behavior === behavior && rule.text === text);
      if (index >= 0) current.splice(index, 1);
      return index >= 0;
    },
    rules: () => current,
    decide(call: ToolCall, tool: { readOnly: boolean }): PermissionDecision {
      return checkPermission({ call, tool, mode: currentMode, rules: current, workspace, realPathOf: realPathInput, sandbox });
    },
    async ask(call: ToolCall, pending: PermissionDecision, signal: AbortSignal): Promise<PermissionDecision> {
      if (!prompt) {
        const decidedBy = `no TTY to ask (${pending.decidedBy})`;
        return { behavior: 'deny', decidedBy, message: `${call.name} needs permission, but there is no terminal to ask: ${decidedBy}.` };
      }
      if (signal.aborted) return { behavior: 'deny', decidedBy: `user: aborted before answering (asked because ${pending.decidedBy})` };
      const { decision, savedRules } = await prompt({ call, pending, signal });
      current.push(...savedRules);
      return decision;
    },
  };
}
