import path from 'node:path';
import { claudeCodeName } from '../permissions/claude-tools.js';

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
