import type { ToolCall } from '../../../machines/types.js';
import { visible } from '../../permissions/request-view.js';

export { describeCall } from '../../engine/stop-message.js';

/**
 * One informative line per tool call and per result, shared by text mode and the terminal UI:
 * `grep "TODO" in src ⎿ 3 matches in 2 files`, `bash npm test ⎿ exit 1 · 42 lines`,
 * `read_file package.json ⎿ 14 lines`, `edit_file src/a.ts ⎿ +3 −1`. Pure text; model- and
 * tool-written text is made visible (never obeyed) here, once.
 */

const MAX_ARG = 80;
/** Lines of a failing command's output shown under its summary. */
export const FAILURE_TAIL_LINES = 5;

function clip(text: string, max = MAX_ARG): string {
  const oneLine = text.replace(/\n/g, '↵');
  return visible(oneLine.length > max ? `${oneLine.slice(0, max - 1)}…` : oneLine);
}

function str(input: Record<string, unknown>, key: string): string | undefined {
  const value = input[key];
  return typeof value === 'string' ? value : undefined;
}

/** The call as the person reads it: `bash npm test`, `grep "TODO" in src`, `read_file package.json`. */
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
    default: {
      const json = JSON.stringify(call.input ?? {});
      return `${visible(call.name)} ${clip(json === '{}' ? '' : json)}`.trimEnd();
    }
  }
}

export interface ResultSummary {
  /** After `⎿`: `exit 1 · 42 lines`, `3 matches in 2 files`, `+3 −1`. */
  summary: string;
  /** For a failing command: its last lines, shown under the summary. */
  tail: string[];
}

const plural = (n: number, word: string, many = `${word}s`) => `${n} ${n === 1 ? word : many}`;

/** Lines with `+` / `-` an edit makes: the old and new text without the lines both ends share. */
export function editCounts(oldText: string, newText: string): { added: number; removed: number } {
  const before = oldText.split('\n');
  const after = newText.split('\n');
  let head = 0;
  while (head < before.length && head < after.length && before[head] === after[head]) head++;
  let tail = 0;
  while (tail < before.length - head && tail < after.length - head && before[before.length - 1 - tail] === after[after.length - 1 - tail])
    tail++;
  return { added: after.length - head - tail, removed: before.length - head - tail };
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
  return { summary, tail: isError ? output.slice(-FAILURE_TAIL_LINES).map((line) => clip(line, 200)) : [] };
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
  const first = { summary: clip(result.content.split('\n', 1)[0] ?? '', 120), tail: [] };
  if (result.is_error && /^No (matches for|files match) /.test(result.content)) return { summary: 'no matches', tail: [] };
  if (result.is_error) return first;
  switch (call.name) {
    case 'grep':
      return { summary: grepSummary(result.content), tail: [] };
    case 'read_file':
      return { summary: readSummary(result.content), tail: [] };
    case 'edit_file': {
      const { added, removed } = editCounts(str(input, 'old_string') ?? '', str(input, 'new_string') ?? '');
      return { summary: `+${added} −${removed}`, tail: [] };
    }
    case 'write_file':
      return { summary: plural((str(input, 'content') ?? '').split('\n').length, 'line'), tail: [] };
    case 'glob':
    case 'list_dir': {
      const entries = / is empty\.$/.test(result.content)
        ? 0
        : result.content.split('\n').filter((line) => line && !/^\[.*\]$/.test(line)).length;
      return { summary: call.name === 'glob' ? plural(entries, 'file') : plural(entries, 'entry', 'entries'), tail: [] };
    }
    default:
      return first;
  }
}
