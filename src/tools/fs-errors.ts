import type { ToolResult } from '../../machines/types.js';
import { fail } from './result.js';

/**
 * Turns a file-system error the model can do something about into an error result; anything
 * else is rethrown so the engine stops with `tool_error`. This is the one place that decides.
 * @example catch (error) { return fsErrorResult(error, 'src/a.ts'); }
 */
export function fsErrorResult(error: unknown, display: string): ToolResult {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'ENOENT':
      return fail(`${display}: not found; use glob to find it.`);
    case 'EISDIR':
      return fail(`${display} is a directory, use list_dir.`);
    case 'ENOTDIR':
      return fail(`${display}: a part of this path is a file, not a directory.`);
    case 'EACCES':
    case 'EPERM':
      return fail(`${display}: permission denied by the operating system.`);
    case 'EROFS':
      return fail(`${display}: the file system is read-only.`);
    case 'ENOSPC':
      return fail(`${display}: no space left on the device.`);
    case 'ENAMETOOLONG':
      return fail(`${display}: the path is too long.`);
    case 'ELOOP':
      return fail(`${display}: too many levels of symbolic links, or a symbolic link where a file was expected; refused.`);
    case 'EXAGENTMOVED':
      // handle-path.ts: a concurrent process swapped a folder for a link; nothing was read or written there.
      return fail(`${display}: the path changed while it was being opened (a symbolic link was swapped in); refused.`);
    default:
      throw error;
  }
}
