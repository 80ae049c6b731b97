import type { ToolCall } from '../../machines/types.js';
import { splitCommand, type ParsedCommand, type SimpleCommand } from './bash-command.js';
import { matchPathPattern, resolveToolPath } from './path-glob.js';
import { isFileTool, type PermissionRule } from './rules.js';

/**
 * How one rule meets one call. Restrictions (deny, ask) bite if they match any part of a call;
 * allow rules must cover every part. The asymmetry is the point: a rule can only ever widen
 * what runs by exactly what it names.
 */

/** What a restriction matched: the command part or path, for the explanation. */
export type Hit = { what: string } | null;

/** The allow rules that cover the whole call, or why none can. */
export type Cover = { rules: PermissionRule[] } | { uncovered: string };

/** A bash command pattern: the whole simple command, `*` any run of characters, `\*` a literal star. */
export function bashPatternRegExp(pattern: string): RegExp {
  let source = '';
  const normalized = pattern.trim().replace(/\s+/g, ' ');
  for (let i = 0; i < normalized.length; i++) {
    const c = normalized[i];
    if (c === '\\' && i + 1 < normalized.length) source += escapeRegExp(normalized[++i]);
    else if (c === '*') source += '.*';
    else source += escapeRegExp(c);
  }
  return new RegExp(`^${source}$`, 's');
}

/** Whitespace runs count as one space on both sides, so `npm  test` is `npm test`. */
export function matchesCommand(pattern: string, command: string): boolean {
  return bashPatternRegExp(pattern).test(command.trim().replace(/\s+/g, ' '));
}

/** True if the pattern has an unescaped `*`. */
export function hasWildcard(pattern: string): boolean {
  return /(^|[^\\])(\\\\)*\*/.test(pattern);
}

/** Escapes `*` and `\` so a command can be written as an exact pattern. */
export function escapeCommandPattern(command: string): string {
  return command.replace(/[\\*]/g, '\\$&');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** The bash command of a call, parsed; a missing or non-string command is unsure. */
export function parseBashCall(call: ToolCall): ParsedCommand & { command: string } {
  const command = (call.input as { command?: unknown } | null)?.command;
  if (typeof command !== 'string') return { command: String(command), parts: [], unsure: 'no command string' };
  const parsed = splitCommand(command);
  if (!parsed.unsure && parsed.parts.length === 0) return { ...parsed, command, unsure: 'empty command' };
  return { ...parsed, command };
}

/** The path input of a file-tool call (`.` when absent); null when it is not a string. */
export function filePathOf(call: ToolCall): string | null {
  const input = call.input as { path?: unknown } | null;
  const value = input && typeof input === 'object' ? input.path : undefined;
  if (value === undefined) return '.';
  return typeof value === 'string' ? value : null;
}

/** True if the call's path lies inside the workspace (textually; the tools also check real paths). */
export function isInsideWorkspace(call: ToolCall, workspace: string): boolean {
  const file = filePathOf(call);
  return file !== null && resolveToolPath(file, workspace).inside;
}

const WRAPPERS = new Set(['sudo', 'env', 'command', 'exec', 'nohup', 'builtin', 'nice', 'time']);

/** The readings of a part that deny and ask rules try: as written, unquoted, unwrapped. */
function restrictionForms(part: SimpleCommand): string[] {
  const words = [...part.words];
  for (;;) {
    if (words.length > 0 && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[0])) words.shift();
    else if (words.length > 0 && WRAPPERS.has(words[0])) {
      words.shift();
      while (words.length > 0 && words[0].startsWith('-')) words.shift();
    } else break;
  }
  if (words.length > 0 && words[0].includes('/')) words[0] = words[0].slice(words[0].lastIndexOf('/') + 1);
  return [...new Set([part.text, part.plain, words.join(' ')])];
}

/** Does a deny or ask rule bite this call? */
export function restrictionHit(rule: PermissionRule, call: ToolCall, workspace: string): Hit {
  if (rule.tool !== call.name) return null;
  if (rule.pattern === undefined) return { what: call.name };
  if (call.name === 'bash') {
    const parsed = parseBashCall(call);
    const pattern = rule.pattern;
    for (const part of parsed.parts) {
      if (restrictionForms(part).some((form) => matchesCommand(pattern, form))) return { what: part.text };
    }
    // A command read only in part may hide more: try the whole text and a naive split too.
    if (parsed.unsure) {
      const chunks = [parsed.command, ...parsed.command.split(/[;&|\n()`{}]+|\$\(/)].map((c) => c.trim()).filter(Boolean);
      const chunk = chunks.find((c) => matchesCommand(pattern, c));
      if (chunk !== undefined) return { what: chunk };
    }
    return null;
  }
  if (isFileTool(call.name)) {
    const file = filePathOf(call);
    // A path the matcher cannot read is treated as matching: restrictions err on the side of biting.
    if (file === null) return { what: 'an unreadable path' };
    return matchPathPattern(rule.pattern, file, workspace) ? { what: file } : null;
  }
  return null;
}

/** Do these allow rules, together, cover the whole call? */
export function allowCover(rules: readonly PermissionRule[], call: ToolCall, workspace: string): Cover {
  const own = rules.filter((rule) => rule.tool === call.name);
  const whole = own.find((rule) => rule.pattern === undefined);
  if (whole) return { rules: [whole] };
  if (own.length === 0) return { uncovered: `no allow rule for ${call.name}` };
  if (call.name === 'bash') return allowCoverBash(own, call);
  if (isFileTool(call.name)) {
    const file = filePathOf(call);
    if (file === null) return { uncovered: 'the path is not a string' };
    const rule = own.find((r) => r.pattern !== undefined && matchPathPattern(r.pattern, file, workspace));
    return rule ? { rules: [rule] } : { uncovered: `no allow rule matches path "${file}"` };
  }
  return { uncovered: `no allow rule for ${call.name}` };
}

function allowCoverBash(own: readonly PermissionRule[], call: ToolCall): Cover {
  const parsed = parseBashCall(call);
  if (parsed.unsure) return { uncovered: `the command could not be read safely (${parsed.unsure})` };
  const used: PermissionRule[] = [];
  for (const part of parsed.parts) {
    const rule = own.find((r) => r.pattern !== undefined && allowsPart(r.pattern, part));
    if (!rule) {
      const why = part.writesFile ? ' (it writes to a file, so only an exact rule allows it)' : '';
      return { uncovered: `no allow rule covers "${part.text}"${why}` };
    }
    if (!used.includes(rule)) used.push(rule);
  }
  return { rules: used };
}

/** Wildcards never reach across a redirection to a file: `npm test*` does not allow `npm test > ~/.bashrc`. */
function allowsPart(pattern: string, part: SimpleCommand): boolean {
  if (part.writesFile && hasWildcard(pattern)) return false;
  return matchesCommand(pattern, part.text);
}
