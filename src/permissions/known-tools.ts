import { isClaudeCodeToolName, xagentToolsOf } from './claude-tools.js';
import { AGENT_TOOLS, COMMAND_TOOLS, FILE_TOOLS, type PermissionRule } from './rules.js';

/** The built-in tools a rule may name (`task` too); MCP tools (`mcp__<server>` or `mcp__<server>__<tool>`) come on top. */
export const BUILTIN_TOOL_NAMES: readonly string[] = [...FILE_TOOLS, ...COMMAND_TOOLS, ...AGENT_TOOLS];

/**
 * The problem with a rule naming a tool that does not exist, or null. A mistyped deny rule
 * (`bassh`) would silently protect nothing, so such rules are refused, not ignored.
 * @example unknownToolProblem(rule, BUILTIN_TOOL_NAMES) // 'unknown tool "bassh" in rule "bassh"; did you mean "bash"? ...'
 */
export function unknownToolProblem(rule: PermissionRule, known: readonly string[]): string | null {
  if (known.includes(rule.tool) || isClaudeCodeToolName(rule.tool) || rule.tool === 'mcp__*') return null;
  if (/^mcp__[A-Za-z0-9_-]+(__.+)?$/.test(rule.tool)) return null;
  const near = known.find((name) => distance(name, rule.tool) <= 2);
  return (
    `unknown tool "${rule.tool}" in rule "${rule.text}"${near ? `; did you mean "${near}"?` : ''} ` +
    `(tools: ${known.join(', ')}, Claude Code's names such as Bash or Read, or mcp__<server>__<tool>)`
  );
}

/**
 * A rule written with a Claude Code tool name this run has no tool for (`WebFetch(domain:x)`,
 * `WebSearch`): kept, matching nothing, and worth one warning, never a refusal.
 * @example lackingTool(parseRules(['WebSearch'], 'allow', 'f')[0], BUILTIN_TOOL_NAMES) // 'WebSearch'
 */
export function lackingTool(rule: PermissionRule, known: readonly string[]): string | null {
  if (!isClaudeCodeToolName(rule.tool) || known.includes(rule.tool)) return null;
  return xagentToolsOf(rule.tool, known).length === 0 ? rule.tool : null;
}

/** Levenshtein distance, for the "did you mean" hint. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length];
}
