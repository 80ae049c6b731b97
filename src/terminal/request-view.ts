import type { ToolCall } from '../../machines/types.js';
import { splitCommand } from '../permissions/bash-command.js';
import { escapeCommandPattern } from '../permissions/match-rule.js';
import { escapeGlob, resolveToolPath } from '../permissions/path-glob.js';
import { formatRule, isFileTool } from '../permissions/rules.js';
import { visible } from './visible.js';
import { diffText, proposedEditDiff } from './edit-diff.js';

/**
 * What the person is shown before answering, and what "always" would save. Pure text: the
 * prompt does the I/O. The model writes these inputs, so every control character is made
 * visible; a `\r` or an escape sequence must not be able to hide part of a command.
 */

const PREVIEW_LINES = 12;

function indent(text: string, prefix: string): string[] {
  return visible(text)
    .split('\n')
    .map((line) => `${prefix}${line}`);
}

function field(call: ToolCall, key: string): unknown {
  const input = call.input;
  return input && typeof input === 'object' ? (input as Record<string, unknown>)[key] : undefined;
}

/**
 * The request as lines of text: the tool, why it asks, and the full command or the change.
 * `existingSize` is the size of the file a write_file would replace, if known; `fileText` the text
 * of the file an edit_file changes, if it could be read (its diff then has 3 lines of context).
 * @example describeRequest(call, 'default: bash asks') // ['xagent wants to run bash (default: bash asks)', '  $ npm test']
 */
export function describeRequest(
  call: ToolCall,
  reason: string,
  { existingSize, fileText = null }: { existingSize?: number; fileText?: string | null } = {},
): string[] {
  const file = field(call, 'path');
  const on = typeof file === 'string' ? ` on ${visible(file)}` : '';
  if (call.name === 'bash') {
    const command = field(call, 'command');
    return [`xagent wants to run bash (${visible(reason)})`, ...indent(String(command), '  $ ')];
  }
  const head = `xagent wants to use ${visible(call.name)}${on} (${visible(reason)})`;
  if (call.name === 'edit_file') {
    const all = field(call, 'replace_all') === true ? ['  (every occurrence)'] : [];
    return [head, ...all, ...diffText(proposedEditDiff(call, fileText).lines)];
  }
  if (call.name === 'write_file') {
    const content = String(field(call, 'content') ?? '');
    const lines = content.split('\n');
    const replaces = existingSize === undefined ? 'new file' : `replaces the existing ${existingSize} bytes`;
    const more = lines.length > PREVIEW_LINES ? [`  ... ${lines.length - PREVIEW_LINES} more lines`] : [];
    return [
      head,
      `  ${Buffer.byteLength(content)} bytes, ${lines.length} lines (${replaces}):`,
      ...lines.slice(0, PREVIEW_LINES).flatMap((l) => indent(l, '  | ')),
      ...more,
    ];
  }
  return [head, ...indent(JSON.stringify(call.input, null, 2) ?? 'undefined', '  ')];
}

/** A second word that reads as a subcommand (`test` in `npm test`), not a flag, path or value. */
const SUBCOMMAND = /^[A-Za-z][A-Za-z0-9_:-]*$/;

/**
 * The allow rules "always" saves, or none when no rule could allow the call again. bash saves a
 * prefix rule per simple command when it has subcommands (up to two words: `npm test -- --watch`
 * gives `bash(npm test*)`, `npm run lint` gives `bash(npm run lint*)`), else the exact command
 * (`rm -rf build` gives `bash(rm -rf build)`: a prefix of `rm` would allow far more than was
 * asked). File tools save the exact workspace-relative path, other tools their name.
 * @example alwaysRules({ id: '1', name: 'edit_file', input: { path: './src/a.ts' } }, '/ws') // ['edit_file(src/a.ts)']
 */
export function alwaysRules(call: ToolCall, workspace: string): string[] {
  if (call.name === 'bash') {
    const command = field(call, 'command');
    if (typeof command !== 'string') return [];
    const parsed = splitCommand(command);
    if (parsed.unsure) return [];
    const patterns = parsed.parts.map((part) => {
      const [program, ...rest] = part.words;
      const subs: string[] = [];
      for (const word of rest.slice(0, 2)) {
        if (!SUBCOMMAND.test(word)) break;
        subs.push(word);
      }
      const plainProgram = program !== undefined && /^[A-Za-z0-9_./-]+$/.test(program);
      if (plainProgram && subs.length > 0) return `${escapeCommandPattern([program, ...subs].join(' '))}*`;
      return escapeCommandPattern(part.text);
    });
    return [...new Set(patterns)].map((pattern) => formatRule({ tool: 'bash', pattern }));
  }
  if (isFileTool(call.name)) {
    const file = field(call, 'path') ?? '.';
    if (typeof file !== 'string') return [];
    const resolved = resolveToolPath(file, workspace);
    if (!resolved.inside) return [];
    return [formatRule({ tool: call.name, pattern: escapeGlob(resolved.relative || '.') })];
  }
  return [call.name];
}
