import type { ToolCall } from '../../machines/types.js';
import { visible } from './visible.js';
import { fragmentDiff } from './edit-diff.js';

export { describeCall } from '../engine/stop-message.js';

/**
 * One informative line per tool call and per result, shared by text mode and the terminal UI:
 * `grep "TODO" in src ⎿ 3 matches in 2 files`, `bash npm test ⎿ exit 1 · 42 lines`,
 * `read_file package.json ⎿ 14 lines`, `edit_file src/a.ts ⎿ +3 −1`. Pure text; model- and
 * tool-written text is made visible (never obeyed) here, once.
 */

const MAX_ARG = 80;
/** A failing command's output under its summary: its first lines, the lines that say why, its last lines. */
export const FAILURE_HEAD_LINES = 2;
export const FAILURE_TAIL_LINES = 5;
const FAILURE_WHY_LINES = 10;
/**
 * Lines that usually say why a command failed: test runners, compilers, shells. The marks ✗ × ✕
 * are escaped: esbuild leaves a regular expression's characters as they are, and one non-ASCII
 * character makes V8 hold the whole compiled core (dist/bin/core.cjs) in two bytes a character.
 */
const WHY =
  /\b(fail(s|ed|ure|ing)?|errors?|expected|received|assert(ion)?(error)?|exception|panic(ked)?|traceback|not ok|cannot|undefined reference|no such file)\b|\u2717|\u00d7|\u2715/i;

function clip(text: string, max = MAX_ARG): string {
  const oneLine = text.replace(/\n/g, '↵');
  return visible(oneLine.length > max ? `${oneLine.slice(0, max - 1)}…` : oneLine);
}

function str(input: Record<string, unknown>, key: string): string | undefined {
  const value = input[key];
  return typeof value === 'string' ? value : undefined;
}

/** The call as the person reads it: `bash npm test`, `grep "TODO" in src`, `read_file package.json`, `scout(Read the source)`. */
export function describeActivity(call: ToolCall): string {
  const input = (call.input && typeof call.input === 'object' ? call.input : {}) as Record<string, unknown>;
  const where = str(input, 'path');
  const inPath = where ? ` in ${clip(where)}` : '';
  switch (call.name) {
    case 'bash':
      return `bash ${clip(str(input, 'command') ?? '')}`;
    case 'grep': {
      const glob = str(input, 'glob');
      return `grep ${JSON.stringify(clip(str(input, 'pattern') ?? ''))}${inPath}${glob ? ` (${clip(glob)})` : ''}`;
    }
    case 'glob':
      return `glob ${JSON.stringify(clip(str(input, 'pattern') ?? ''))}${inPath}`;
    case 'list_dir':
      return `list_dir ${clip(where ?? '.')}`;
    case 'read_file':
    case 'write_file':
    case 'edit_file':
      return `${call.name} ${clip(where ?? '?')}`;
    // A subagent as Claude Code shows one: `scout(Read the source)`.
    case 'task':
      return `${clip(str(input, 'subagent_type') ?? 'agent')}(${clip(str(input, 'description') ?? '')})`;
    default: {
      const json = JSON.stringify(call.input ?? {});
      const args = clip(json === '{}' ? '' : json);
      // mcp__github__search_issues reads better as `github · search_issues`.
      const mcp = /^mcp__(.+?)__(.+)$/.exec(call.name);
      return `${mcp ? `${visible(mcp[1]!)} · ${visible(mcp[2]!)}` : visible(call.name)} ${args}`.trimEnd();
    }
  }
}

export interface ResultSummary {
  /** After `⎿`: `exit 1 · 42 lines`, `3 matches in 2 files`, `+3 −1`. */
  summary: string;
  /** For a failing command: its first lines, the lines that say why and its last lines, with `…` between gaps. */
  detail: string[];
}

const plural = (n: number, word: string, many = `${word}s`) => `${n} ${n === 1 ? word : many}`;

/** Lines with `+` / `-` an edit makes: the old and new text's own diff (edit-diff.ts). */
export function editCounts(oldText: string, newText: string): { added: number; removed: number } {
  const { added, removed } = fragmentDiff(oldText, newText);
  return { added, removed };
}

function bashSummary(content: string, isError: boolean): ResultSummary {
  const lines = content.split('\n');
  const notes = lines.filter((line) => /^\[.*\]$/.test(line));
  const body = lines.filter((line) => !/^\[.*\]$/.test(line));
  const output = body.length === 1 && body[0] === '(no output)' ? [] : body;
  const exit = /^\[exit code: (\d+)\]$/.exec(notes.at(-1) ?? '');
  let status: string;
  if (exit) status = `exit ${exit[1]}`;
  else if (notes.some((n) => n.startsWith('[Timed out'))) status = 'timed out';
  else if (notes.some((n) => n.startsWith('[Interrupted'))) status = 'interrupted';
  else if (notes.some((n) => n.startsWith('[Killed')))
    status = notes
      .find((n) => n.startsWith('[Killed'))!
      .slice(1, -2)
      .toLowerCase();
  else status = isError ? 'failed' : 'done';
  const summary = `${status} · ${output.length === 0 ? 'no output' : plural(output.length, 'line')}`;
  return { summary, detail: isError ? failureLines(output).map((line) => (line === GAP ? line : clip(line, 200))) : [] };
}

const GAP = '…';

/**
 * The lines of a failing command's output that say why: the first lines (the command's own
 * complaint, the test file), every line that names a failure, an error or an expectation with the
 * line after it, and the last lines (the summary). The last lines alone often say only "1 failed".
 * @example failureLines(['RUN', 'a', 'AssertionError: expected 1 to be 2', '  at x', 'b', 'c', 'Tests 1 failed'])
 */
export function failureLines(output: readonly string[]): string[] {
  const keep = new Set<number>();
  for (let i = 0; i < Math.min(FAILURE_HEAD_LINES, output.length); i++) keep.add(i);
  let why = 0;
  output.forEach((line, i) => {
    if (why >= FAILURE_WHY_LINES || !WHY.test(line)) return;
    why++;
    keep.add(i);
    if (i + 1 < output.length) keep.add(i + 1);
  });
  for (let i = Math.max(0, output.length - FAILURE_TAIL_LINES); i < output.length; i++) keep.add(i);
  const lines: string[] = [];
  let last = -1;
  for (const i of [...keep].sort((a, b) => a - b)) {
    if (i > last + 1) lines.push(GAP);
    lines.push(output[i]!);
    last = i;
  }
  return lines;
}

/** An MCP result's first line, readable: JSON says what it holds, text its first line and how long it is. */
function mcpSummary(content: string): string {
  const trimmed = content.trim();
  if (/^[[{]/.test(trimmed)) {
    try {
      const value: unknown = JSON.parse(trimmed);
      if (Array.isArray(value)) return plural(value.length, 'item');
      if (value && typeof value === 'object') {
        const keys = Object.keys(value);
        return clip(`${plural(keys.length, 'field')}: ${keys.join(', ')}`, 120);
      }
    } catch {
      // Not JSON after all: shown as text.
    }
  }
  const lines = trimmed.split('\n').filter((line) => line.trim());
  const first = clip(lines[0] ?? '(no content)', 120);
  return lines.length > 1 ? `${first} · ${plural(lines.length, 'line')}` : first;
}

function grepSummary(content: string): string {
  const shown = /\[Showing \d+ of (more than )?(\d+) matching lines in (\d+)(\+?) files/.exec(content);
  if (shown) return `${shown[1] ? 'more than ' : ''}${plural(Number(shown[2]), 'match', 'matches')} in ${shown[3]}${shown[4]} files`;
  const hits = content.split('\n').filter((line) => /^.+?:\d+:/.test(line));
  const files = new Set(hits.map((line) => /^(.+?):\d+:/.exec(line)![1]));
  return `${plural(hits.length, 'match', 'matches')} in ${plural(files.size, 'file')}`;
}

function readSummary(content: string): string {
  if (/ is empty \(0 lines\)\.$/.test(content)) return '0 lines';
  const range = /\[Showing lines (\d+)-(\d+) of (\d+),/.exec(content);
  if (range) return `lines ${range[1]}-${range[2]} of ${range[3]}`;
  return plural(content.split('\n').filter((line) => /^\s*\d+\t/.test(line)).length, 'line');
}

/** What a result says, in a few words; an error shows its first line. */
export function summarizeResult(call: ToolCall, result: { content: string; is_error: boolean }): ResultSummary {
  const input = (call.input && typeof call.input === 'object' ? call.input : {}) as Record<string, unknown>;
  if (call.name === 'bash') return bashSummary(result.content, result.is_error);
  if (call.name.startsWith('mcp__')) return { summary: mcpSummary(result.content), detail: [] };
  const first = { summary: clip(result.content.split('\n', 1)[0] ?? '', 120), detail: [] };
  if (result.is_error && /^No (matches for|files match) /.test(result.content)) return { summary: 'no matches', detail: [] };
  if (result.is_error) return first;
  switch (call.name) {
    case 'grep':
      return { summary: grepSummary(result.content), detail: [] };
    case 'read_file':
      return { summary: readSummary(result.content), detail: [] };
    case 'edit_file': {
      const { added, removed } = editCounts(str(input, 'old_string') ?? '', str(input, 'new_string') ?? '');
      return { summary: `+${added} −${removed}`, detail: [] };
    }
    case 'write_file':
      return { summary: plural((str(input, 'content') ?? '').split('\n').length, 'line'), detail: [] };
    case 'glob':
    case 'list_dir': {
      const entries = / is empty\.$/.test(result.content)
        ? 0
        : result.content.split('\n').filter((line) => line && !/^\[.*\]$/.test(line)).length;
      return { summary: call.name === 'glob' ? plural(entries, 'file') : plural(entries, 'entry', 'entries'), detail: [] };
    }
    default:
      return first;
  }
}
