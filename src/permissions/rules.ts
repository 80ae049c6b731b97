import type { PermissionBehavior } from '../../machines/types.js';
import { CLAUDE_CODE_TOOLS, isClaudeCodeToolName } from './claude-tools.js';
import { UsageError } from '../errors/xagent-error.js';

/** Tools whose rules take a path glob, matched against the `path` input (default `.`). */
export const FILE_TOOLS = ['read_file', 'write_file', 'edit_file', 'list_dir', 'glob', 'grep'] as const;
/** Tools whose rules take a command pattern. */
export const COMMAND_TOOLS = ['bash'] as const;
/** The subagent tool (src/agents' `task`), which every run with agents has; Claude Code calls it `Task` or `Agent`. */
export const AGENT_TOOLS = ['task'] as const;

const KNOWN_TOOLS: readonly string[] = [...FILE_TOOLS, ...COMMAND_TOOLS, ...AGENT_TOOLS];
const TOOL_NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

/** A parsed rule: `tool` (every call of the tool) or `tool(pattern)`. */
export interface RuleSpec {
  tool: string;
  pattern?: string;
}

/** A rule with what it does and where it came from, for `decidedBy`. */
export interface PermissionRule extends RuleSpec {
  behavior: PermissionBehavior;
  /** The rule as written, e.g. `bash(npm test*)`. */
  text: string;
  /** A settings file path, `--allow`, `--deny`... */
  source: string;
  /**
   * The folder Claude Code's `/path` patterns are relative to: the one holding the `.claude` folder
   * of the settings file (the workspace for flags). Only rules with Claude Code's tool names read it.
   */
  root?: string;
}

export class RuleParseError extends UsageError {
  override readonly name = 'RuleParseError';
  override readonly fault = 'config';
  readonly code = 'RULE_INVALID';
  constructor(
    readonly rule: string,
    readonly problem: string,
  ) {
    super(`bad rule "${rule}": ${problem}`);
  }
}

/** `mcp__<server>__*` (Claude Code's "every tool of the server") and `mcp__*` (every MCP tool). */
const MCP_WILDCARD = /^mcp__(?:([A-Za-z0-9_-]+?)__)?\*$/;

/**
 * Parses `tool` or `tool(pattern)`, with xagent's tool names (`bash`, `read_file`) or Claude
 * Code's (`Bash`, `Read`, `WebFetch`...). Patterns are only accepted where they can match
 * something (commands, file paths, and Claude Code's own tools, which keep theirs), so a rule
 * never silently fails to bite.
 * @example parseRule('bash(npm test*)') // { tool: 'bash', pattern: 'npm test*' }
 * @example parseRule('mcp__github__*') // { tool: 'mcp__github' }
 * @throws RuleParseError
 */
export function parseRule(text: string): RuleSpec {
  const rule = text.trim();
  if (!rule) throw new RuleParseError(text, 'empty rule');
  const wildcard = MCP_WILDCARD.exec(rule);
  if (wildcard) return { tool: wildcard[1] === undefined ? 'mcp__*' : `mcp__${wildcard[1]}` };
  const open = rule.indexOf('(');
  const tool = open < 0 ? rule : rule.slice(0, open).trim();
  if (!TOOL_NAME.test(tool)) {
    throw new RuleParseError(text, `"${tool}" is not a tool name (expected e.g. bash, read_file or edit_file(src/**))`);
  }
  const named = KNOWN_TOOLS.includes(tool) || isClaudeCodeToolName(tool);
  const lookalike = [...KNOWN_TOOLS, ...Object.keys(CLAUDE_CODE_TOOLS)].find(
    (known) => known.toLowerCase() === tool.toLowerCase() && known !== tool,
  );
  if (!named && lookalike) {
    throw new RuleParseError(text, `unknown tool "${tool}"; tool names are case-sensitive, did you mean "${lookalike}"?`);
  }
  if (open < 0) return { tool };
  if (!rule.endsWith(')')) throw new RuleParseError(text, 'missing ")" at the end');
  const pattern = rule.slice(open + 1, -1).trim();
  if (!pattern) throw new RuleParseError(text, `empty pattern; write "${tool}" to match every call`);
  if (!named) {
    throw new RuleParseError(text, `"${tool}" takes no pattern (patterns work for bash and ${FILE_TOOLS.join(', ')}); write "${tool}"`);
  }
  // Claude Code: `Bash(*)` is `Bash`.
  if (isClaudeCodeToolName(tool) && pattern === '*') return { tool };
  return { tool, pattern };
}

/** Writes a rule back as text. @example formatRule({ tool: 'bash', pattern: 'ls' }) // 'bash(ls)' */
export function formatRule(rule: RuleSpec): string {
  return rule.pattern === undefined ? rule.tool : `${rule.tool}(${rule.pattern})`;
}

/** @example describeRule(rule) // 'deny rule "bash(rm*)" from /home/u/.xagent/settings.json' */
export function describeRule(rule: PermissionRule): string {
  return `${rule.behavior} rule "${rule.text}" from ${rule.source}`;
}

/** Parses rule texts from one source (`root`: see PermissionRule). @throws RuleParseError */
export function parseRules(texts: readonly string[], behavior: PermissionBehavior, source: string, root?: string): PermissionRule[] {
  return texts.map((text) => ({ ...parseRule(text), behavior, text: text.trim(), source, ...(root === undefined ? {} : { root }) }));
}

/** True when a rule is written with Claude Code's tool name, so its pattern means what Claude Code says. */
export function isClaudeCodeRule(rule: RuleSpec): boolean {
  return isClaudeCodeToolName(rule.tool);
}

/**
 * Whether a rule's tool names a call's tool: the same name, or a server rule `mcp__<server>` for
 * every tool of that server (`mcp__<server>__<tool>`; server names never contain `__`).
 * @example ruleNamesTool('mcp__github', 'mcp__github__create_issue') // true
 */
export function ruleNamesTool(ruleTool: string, toolName: string): boolean {
  if (ruleTool === toolName || CLAUDE_CODE_TOOLS[ruleTool]?.includes(toolName)) return true;
  if (ruleTool === 'mcp__*') return isMcpToolName(toolName);
  return isMcpToolName(ruleTool) && !ruleTool.slice(5).includes('__') && toolName.startsWith(`${ruleTool}__`);
}

/** MCP tools are named `mcp__<server>__<tool>`. */
export function isMcpToolName(name: string): boolean {
  return name.startsWith('mcp__');
}

export function isFileTool(name: string): boolean {
  return (FILE_TOOLS as readonly string[]).includes(name);
}
