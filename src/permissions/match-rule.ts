import type { ToolCall } from '../../machines/types.js';
import { COMMAND_WRAPPERS, splitCommand, type ParsedCommand, type SimpleCommand } from './bash-command.js';
import { notReadOnly } from './bash-read-only.js';
import { matchClaudePath } from './claude-path.js';
import { matchPathPattern, resolveToolPath } from './path-glob.js';
import { isClaudeCodeRule, isFileTool, ruleNamesTool, type PermissionRule } from './rules.js';

/**
 * How one rule meets one call. Restrictions (deny, ask) bite if they match any part of a call;
 * allow rules must cover every part. The asymmetry is the point: a rule can only ever widen
 * what runs by exactly what it names.
 */

/** What a restriction matched: the command part or path, for the explanation. */
export type Hit = { what: string } | null;

/**
 * The allow rules that cover the whole call, or why none can. `readOnly`: the bash parts that
 * needed no rule, being read-only commands (bash-read-only.ts); `rules` may then be empty.
 */
export type Cover = { rules: PermissionRule[]; readOnly?: string[] } | { uncovered: string };

/**
 * A bash command pattern: the whole simple command, `*` any run of characters, `\*` a literal star.
 * Claude Code's prefix forms keep a word boundary: `npm run test:*` (only at the end) and a
 * pattern whose one wildcard is a trailing ` *` match the prefix alone or followed by a space, so
 * `git push:*` bites `git push` and `git push origin` but not `git pushx`.
 */
export function bashPatternRegExp(pattern: string): RegExp {
  let normalized = pattern.trim().replace(/\s+/g, ' ');
  let tail = '';
  const legacyPrefix = normalized.endsWith(':*') && !normalized.endsWith('\\:*');
  if (legacyPrefix || (normalized.endsWith(' *') && !hasWildcard(normalized.slice(0, -2)))) {
    normalized = normalized.slice(0, -2).trimEnd();
    tail = '(?: .*)?';
  }
  let source = '';
  for (let i = 0; i < normalized.length; i++) {
    const c = normalized[i];
    if (c === '\\' && i + 1 < normalized.length) source += escapeRegExp(normalized[++i]);
    else if (c === '*') source += '.*';
    else source += escapeRegExp(c);
  }
  return new RegExp(`^${source}${tail}$`, 's');
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
  if (typeof command !== 'string') return { command: String(command), parts: [], writes: [], unsure: 'no command string' };
  const parsed = splitCommand(command);
  if (!parsed.unsure && parsed.parts.length === 0) return { ...parsed, command, unsure: 'empty command' };
  return { ...parsed, command };
}

/** Claude Code's `Task(<agent>)` names the subagent a `task` call starts (`subagent_type`). */
function subagentOf(call: ToolCall): unknown {
  const input = call.input as { subagent_type?: unknown } | null;
  return input && typeof input === 'object' ? input.subagent_type : undefined;
}

/** The path input of a file-tool call (`.` when absent); null when it is not a string. */
export function filePathOf(call: ToolCall): string | null {
  const input = call.input as { path?: unknown } | null;
  const value = input && typeof input === 'object' ? input.path : undefined;
  if (value === undefined) return '.';
  return typeof value === 'string' ? value : null;
}

/**
 * Where a path input really points (symlinks followed), as a path input; null when it cannot be
 * resolved. Absent in pure checks, where paths are taken as written.
 */
export type RealPathOf = (input: string, workspace: string) => string | null;

/** The path of a file-tool call as written, and where it really points (undefined: not looked up). */
export interface CallPaths {
  written: string;
  real?: string | null;
}

/** The paths a file-tool call touches; null when its path input is not a string. */
export function callPaths(call: ToolCall, workspace: string, realPathOf?: RealPathOf): CallPaths | null {
  const written = filePathOf(call);
  if (written === null) return null;
  if (!realPathOf) return { written };
  const real = realPathOf(written, workspace);
  return real === written ? { written } : { written, real };
}

/**
 * True if a path rule matches a path input: xagent's globs (relative to the workspace), or for
 * rules with Claude Code's names (`Read(*.pem)`) Claude Code's gitignore-style patterns.
 */
export function rulePathMatches(rule: PermissionRule, input: string, workspace: string): boolean {
  if (rule.pattern === undefined) return true;
  if (!isClaudeCodeRule(rule)) return matchPathPattern(rule.pattern, input, workspace);
  return matchClaudePath(rule.pattern, resolveToolPath(input, workspace).absolute, {
    workspace,
    ...(rule.root ? { root: rule.root } : {}),
  });
}

/** True if a path rule matches the path as written or where it really points (or cannot be resolved). */
function eitherMatches(rule: PermissionRule, paths: CallPaths, workspace: string): boolean {
  if (rulePathMatches(rule, paths.written, workspace)) return true;
  return paths.real === null || (paths.real !== undefined && rulePathMatches(rule, paths.real, workspace));
}

/** True if the call's path lies inside the workspace, as written and after symlinks (when looked up). */
export function isInsideWorkspace(call: ToolCall, workspace: string, realPathOf?: RealPathOf): boolean {
  const paths = callPaths(call, workspace, realPathOf);
  if (paths === null || !resolveToolPath(paths.written, workspace).inside) return false;
  return paths.real === undefined || (paths.real !== null && resolveToolPath(paths.real, workspace).inside);
}

const FIND_EXEC = new Set(['-exec', '-execdir', '-ok', '-okdir']);

/**
 * The readings of a part that deny and ask rules try: as written, unquoted, and every command a
 * wrapper would run. Rather than knowing each wrapper's options (`nice -n 5`, `timeout -s KILL 5`),
 * every tail after a wrapper is tried, so option values never hide the command.
 */
function restrictionForms(part: SimpleCommand): string[] {
  const forms = new Set([part.text, part.plain]);
  const command = (words: readonly string[]): string[] => {
    const rest = [...words];
    while (rest.length > 0 && /^[A-Za-z_][A-Za-z0-9_]*=/.test(rest[0])) rest.shift();
    if (rest.length > 0 && rest[0].includes('/')) rest[0] = rest[0].slice(rest[0].lastIndexOf('/') + 1);
    return rest;
  };
  const words = command(part.words);
  forms.add(words.join(' '));
  if (words.length > 0 && COMMAND_WRAPPERS.has(words[0])) {
    for (let i = 1; i < words.length; i++) forms.add(command(words.slice(i)).join(' '));
  }
  if (words[0] === 'find') {
    words.forEach((word, i) => {
      if (FIND_EXEC.has(word)) forms.add(command(words.slice(i + 1)).join(' '));
    });
  }
  return [...forms].filter(Boolean);
}

/** Does a deny or ask rule bite this call? */
export function restrictionHit(rule: PermissionRule, call: ToolCall, workspace: string, realPathOf?: RealPathOf): Hit {
  if (!ruleNamesTool(rule.tool, call.name)) return null;
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
  if (call.name === 'task') return subagentOf(call) === rule.pattern ? { what: `${call.name}(${rule.pattern})` } : null;
  if (isFileTool(call.name)) {
    const paths = callPaths(call, workspace, realPathOf);
    // A path the matcher cannot read is treated as matching: restrictions err on the side of biting.
    if (paths === null) return { what: 'an unreadable path' };
    if (!eitherMatches(rule, paths, workspace)) return null;
    const through = paths.real === undefined ? '' : paths.real === null ? ' (its real path cannot be resolved)' : ` (really ${paths.real})`;
    return { what: `${paths.written}${through}` };
  }
  return null;
}

/** Do these allow rules, together, cover the whole call? */
export function allowCover(rules: readonly PermissionRule[], call: ToolCall, workspace: string, realPathOf?: RealPathOf): Cover {
  const own = rules.filter((rule) => ruleNamesTool(rule.tool, call.name));
  const whole = own.find((rule) => rule.pattern === undefined);
  if (whole) return { rules: [whole] };
  // Read-only commands need no rule, so bash is covered part by part even without one.
  if (call.name === 'bash') return allowCoverBash(own, call);
  if (own.length === 0) return { uncovered: `no allow rule for ${call.name}` };
  if (call.name === 'task') {
    const rule = own.find((r) => r.pattern === subagentOf(call));
    return rule ? { rules: [rule] } : { uncovered: `no allow rule for the subagent "${String(subagentOf(call))}"` };
  }
  if (isFileTool(call.name)) {
    const paths = callPaths(call, workspace, realPathOf);
    if (paths === null) return { uncovered: 'the path is not a string' };
    const names = (file: string) => own.find((r) => r.pattern !== undefined && rulePathMatches(r, file, workspace));
    const rule = names(paths.written);
    const realRule = paths.real === undefined ? rule : paths.real === null ? undefined : names(paths.real);
    if (rule && realRule) return { rules: rule === realRule ? [rule] : [rule, realRule] };
    const real =
      paths.real === undefined ? '' : paths.real === null ? ' (its real path cannot be resolved)' : ` and its real path "${paths.real}"`;
    return { uncovered: `no allow rule matches path "${paths.written}"${real}` };
  }
  return { uncovered: `no allow rule for ${call.name}` };
}

function allowCoverBash(own: readonly PermissionRule[], call: ToolCall): Cover {
  const parsed = parseBashCall(call);
  if (parsed.unsure) return { uncovered: `the command could not be read safely (${parsed.unsure})` };
  const used: PermissionRule[] = [];
  const readOnly: string[] = [];
  for (const part of parsed.parts) {
    const rule = own.find((r) => r.pattern !== undefined && allowsPart(r.pattern, part));
    if (!rule && notReadOnly(part) === undefined) {
      readOnly.push(part.text);
      continue;
    }
    if (!rule) {
      if (own.length === 0) return { uncovered: `no allow rule for bash, and "${part.text}" is not read-only (${notReadOnly(part)})` };
      const why = part.writesFile
        ? ' (it writes to a file, so only an exact rule allows it)'
        : part.evaluates
          ? ' (it runs or evaluates its arguments, so only an exact rule allows it)'
          : '';
      return { uncovered: `no allow rule covers "${part.text}"${why}` };
    }
    if (!used.includes(rule)) used.push(rule);
  }
  return readOnly.length > 0 ? { rules: used, readOnly } : { rules: used };
}

/**
 * Wildcards never reach across a redirection to a file (`npm test*` does not allow
 * `npm test > ~/.bashrc`) nor into a command that runs or evaluates its arguments (`env*`, `xargs*`).
 */
function allowsPart(pattern: string, part: SimpleCommand): boolean {
  if ((part.writesFile || part.evaluates) && hasWildcard(pattern)) return false;
  return matchesCommand(pattern, part.text);
}
