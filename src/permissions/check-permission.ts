import type { PermissionDecision, ToolCall } from '../../machines/types.js';
import { protectedRedirect, redirectHit } from './bash-writes.js';
import { allowCover, isInsideWorkspace, restrictionHit, type RealPathOf } from './match-rule.js';
import { protectedWrite } from './protected-paths.js';
import { describeRule, isMcpToolName, type PermissionRule } from './rules.js';
import type { PermissionMode } from './types.js';

export interface CheckPermissionInput {
  call: ToolCall;
  tool: { readOnly: boolean };
  mode: PermissionMode;
  rules: readonly PermissionRule[];
  /** Absolute workspace root; file-tool paths are matched relative to it. */
  workspace: string;
  /** Where a path really points; path rules then match both. Without it (pure tests) paths are taken as written. */
  realPathOf?: RealPathOf;
  /** bash runs inside the OS sandbox (--sandbox): the sandbox, not a prompt, is the boundary. */
  sandbox?: boolean;
}

export const EDIT_TOOLS: ReadonlySet<string> = new Set(['write_file', 'edit_file']);

/** The decision's `decidedBy` for a bash call that runs because the sandbox contains it. */
export const SANDBOX_DECIDED_BY = 'sandbox: bash runs inside the OS sandbox (no deny or ask rule matched)';

/** What the model reads when plan mode refuses a write; it goes back as an error result. */
export function planModeMessage(tool: string): string {
  return (
    `You are in plan mode: only read-only tools may run, so ${tool} was not run. ` +
    'Keep reading what you need, then present your plan instead of making changes.'
  );
}

/**
 * Decides one validated call: deny rules first, then plan mode, bypass mode, ask rules, the
 * sandbox (bash inside it runs without a prompt), allow rules, acceptEdits, and last the defaults (read-only tools allowed, anything
 * else, and every MCP tool, asks).
 * Pure: no I/O, the same input always gives the same decision.
 * @example
 * checkPermission({ call: { id: '1', name: 'bash', input: { command: 'npm test && rm -rf ~' } },
 *   tool: { readOnly: false }, mode: 'default', rules: [allowNpmTest], workspace: '/ws' })
 * // { behavior: 'ask', decidedBy: 'default: bash asks (no allow rule covers "rm -rf ~")' }
 */
export function checkPermission({
  call,
  tool,
  mode,
  rules,
  workspace,
  realPathOf,
  sandbox = false,
}: CheckPermissionInput): PermissionDecision {
  const of = (behavior: PermissionRule['behavior']) => rules.filter((rule) => rule.behavior === behavior);
  const realPath = realPathOf && once(realPathOf);

  // A bash redirection is a write: file rules judge its target as they judge write_file's path.
  const bites = (rule: PermissionRule) => restrictionHit(rule, call, workspace, realPath) ?? redirectHit(rule, call, workspace, realPath);

  for (const rule of of('deny')) {
    const hit = bites(rule);
    if (hit) return deny(call, `${describeRule(rule)}${matchedPart(call, hit.what)}`);
  }

  // Read-only bash commands (`ls`, `git status`) only read, so plan mode lets them run as Claude Code does.
  if (mode === 'plan' && !tool.readOnly && !(call.name === 'bash' && 'rules' in allowCover([], call, workspace))) {
    return {
      behavior: 'deny',
      decidedBy: 'plan mode: only read-only tools may run',
      continueWithFeedback: true,
      message: planModeMessage(call.name),
    };
  }
  if (mode === 'bypassPermissions') return { behavior: 'allow', decidedBy: 'bypassPermissions mode: allowed (no deny rule matched)' };

  // Before any allow rule: a project's own settings must not be able to let the model rewrite them.
  // Inside the OS sandbox these are read-only to bash: the sandbox guards its redirections.
  const guarded = protectedWrite(call, workspace, realPath) ?? (sandbox ? null : protectedRedirect(call, workspace, realPath));
  if (guarded !== null) return wouldAsk(call, mode, `protected path: writes to settings, .mcp.json and .git always ask ("${guarded}")`);

  for (const rule of of('ask')) {
    const hit = bites(rule);
    if (hit) return wouldAsk(call, mode, `${describeRule(rule)}${matchedPart(call, hit.what)}`);
  }

  if (sandbox && call.name === 'bash') return { behavior: 'allow', decidedBy: SANDBOX_DECIDED_BY };

  const cover = allowCover(of('allow'), call, workspace, realPath);
  if ('rules' in cover) return { behavior: 'allow', decidedBy: describeCover(cover.rules, cover.readOnly) };

  if (mode === 'acceptEdits' && EDIT_TOOLS.has(call.name) && isInsideWorkspace(call, workspace, realPath)) {
    return { behavior: 'allow', decidedBy: 'acceptEdits mode: file edits in the workspace are allowed' };
  }
  // An MCP server's readOnlyHint is its own claim: it lets the tool run in plan mode, but it still asks.
  if (isMcpToolName(call.name)) return wouldAsk(call, mode, `default: MCP tools ask (${call.name})`);
  if (tool.readOnly) return { behavior: 'allow', decidedBy: 'default: read-only tools are allowed' };

  const detail = call.name === 'bash' && of('allow').some((rule) => rule.tool === 'bash') ? ` (${cover.uncovered})` : '';
  return wouldAsk(call, mode, `default: ${call.name} asks${detail}`);
}

/** Looks a path up once per decision, however many rules ask about it. */
function once(realPathOf: RealPathOf): RealPathOf {
  const seen = new Map<string, string | null>();
  return (input, workspace) => {
    if (!seen.has(input)) seen.set(input, realPathOf(input, workspace));
    return seen.get(input) ?? null;
  };
}

/** An `ask`, or in dontAsk mode the denial it turns into. */
function wouldAsk(call: ToolCall, mode: PermissionMode, reason: string): PermissionDecision {
  if (mode === 'dontAsk') return deny(call, `dontAsk mode: would ask (${reason})`);
  return { behavior: 'ask', decidedBy: reason };
}

function deny(call: ToolCall, decidedBy: string): PermissionDecision {
  return { behavior: 'deny', decidedBy, message: `Permission to use ${call.name} was denied by ${decidedBy}.` };
}

function matchedPart(call: ToolCall, what: string): string {
  return what === call.name ? '' : ` (matches "${what}")`;
}

/** The allow rules that decided, and the read-only commands that needed none. */
function describeCover(rules: readonly PermissionRule[], readOnly: readonly string[] = []): string {
  const commands = readOnly.map((text) => `"${text}"`).join(', ');
  if (rules.length === 0) return `default: read-only commands run without a rule (${commands})`;
  return readOnly.length === 0 ? describeAllow(rules) : `${describeAllow(rules)}, and read-only ${commands}`;
}

function describeAllow(rules: readonly PermissionRule[]): string {
  if (rules.length === 1) return describeRule(rules[0]);
  return `allow rules ${rules.map((rule) => `"${rule.text}" from ${rule.source}`).join(', ')}`;
}
