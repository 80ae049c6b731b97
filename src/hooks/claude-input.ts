import path from 'node:path';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { claudeCodeName } from '../permissions/claude-tools.js';
import { AUDIT_FILE } from '../sessions/layout.js';

/**
 * A tool call as Claude Code describes it to hooks, so a script written for Claude Code reads
 * the fields it expects: `tool_name: "Bash"`, `tool_input.file_path` (absolute) for the file
 * tools, `tool_input.timeout` for bash. xagent's own input fields (`path`) stay beside them.
 */

type Input = Record<string, unknown>;

function asObject(value: unknown): Input {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Input) : {};
}

/** The absolute form of a path input, as Claude Code's tools take them. */
function absolute(cwd: string, value: unknown): string | undefined {
  return typeof value === 'string' ? path.resolve(cwd, value) : undefined;
}

/**
 * @example claudeToolInput('read_file', { path: '.env' }, '/ws') // { path: '.env', file_path: '/ws/.env' }
 */
export function claudeToolInput(tool: string, input: unknown, cwd: string): unknown {
  const given = asObject(input);
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return input;
  switch (tool) {
    case 'read_file':
    case 'write_file':
    case 'edit_file': {
      const filePath = absolute(cwd, given.path);
      return filePath === undefined ? given : { ...given, file_path: filePath };
    }
    case 'list_dir':
      return { ...given, path: absolute(cwd, given.path ?? '.') };
    case 'glob':
    case 'grep': {
      const out: Input = { ...given };
      if (given.path !== undefined) out.path = absolute(cwd, given.path);
      if (tool === 'grep' && given.ignore_case !== undefined) out['-i'] = given.ignore_case;
      return out;
    }
    case 'bash':
      return given.timeout_ms === undefined ? given : { ...given, timeout: given.timeout_ms };
    default:
      return given;
  }
}

/**
 * A tool result in Claude Code's shape beside xagent's `{content, is_error}`: bash gives
 * `stdout`/`stderr`/`interrupted`, the file tools `filePath` and `success`.
 */
export function claudeToolResponse(
  tool: string,
  input: unknown,
  result: { content: string; is_error: boolean },
  cwd: string,
): { content: string; is_error: boolean } & Input {
  const response = { content: result.content, is_error: result.is_error };
  const filePath = absolute(cwd, asObject(input).path);
  switch (tool) {
    case 'bash':
      return { ...response, stdout: result.content, stderr: '', interrupted: false, isImage: false };
    case 'write_file':
    case 'edit_file':
      return { ...response, ...(filePath ? { filePath } : {}), success: !result.is_error };
    case 'read_file':
      return { ...response, type: 'text', file: { filePath, content: result.content } };
    default:
      return response;
  }
}

/** Claude Code's tool name for a hook's `tool_name`. */
export const claudeToolName = claudeCodeName;

/** The most of a session file's tail that is read for a hook's extra fields: its last 1 MiB. */
const TAIL_BYTES = 1 << 20;

/** The JSON lines at the end of a file, newest first; torn or foreign lines are left out. */
function tailRecords(file: string): Array<Record<string, unknown>> {
  let text: string;
  try {
    const fd = openSync(file, 'r');
    try {
      const size = fstatSync(fd).size;
      const length = Math.min(size, TAIL_BYTES);
      const buffer = Buffer.alloc(length);
      readSync(fd, buffer, 0, length, size - length);
      text = buffer.toString('utf8');
    } finally {
      closeSync(fd);
    }
  } catch {
    return [];
  }
  return text
    .split('\n')
    .reverse()
    .flatMap((line) => {
      try {
        const value = JSON.parse(line) as unknown;
        return typeof value === 'object' && value !== null && !Array.isArray(value) ? [value as Record<string, unknown>] : [];
      } catch {
        return [];
      }
    });
}

/**
 * How long a tool call ran, from the session's audit.jsonl (written when the call ends, before
 * PostToolUse hooks run): Claude Code's `duration_ms`. Undefined without a record of it.
 */
export function toolDurationMs(transcriptPath: string | null, callId: string): number | undefined {
  if (!transcriptPath) return undefined;
  const record = tailRecords(path.join(path.dirname(transcriptPath), AUDIT_FILE)).find(
    (r) => (r.call as { id?: unknown } | undefined)?.id === callId,
  );
  return typeof record?.duration_ms === 'number' ? record.duration_ms : undefined;
}
