import { closeSync, openSync, readFileSync, readSync, writeSync } from 'node:fs';

/**
 * Overwrites the values of `names` in this process's original environment block, the memory
 * `/proc/<pid>/environ` shows to every process of the same user (an MCP server, a hook, bash).
 * Deleting from `process.env` (unsetenv) only unlinks the variable: the bytes stay there, and a
 * child reading `/proc/$PPID/environ` would still find the API key. Linux only (env_start and
 * env_end from /proc/self/stat, written through /proc/self/mem); elsewhere, or when /proc says
 * no, it does nothing and returns false. Call after the variables were deleted from process.env.
 * @example delete process.env.ANTHROPIC_API_KEY; scrubEnvironBlock(['ANTHROPIC_API_KEY']);
 */
export function scrubEnvironBlock(names: readonly string[]): boolean {
  let fd: number | undefined;
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    // The fields after the command name, whose `)` may be inside it: field 3 first; env_start is field 50, env_end 51.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const start = Number(fields[47]);
    const end = Number(fields[48]);
    if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || end <= start || end - start > 16 * 1024 * 1024) return false;
    fd = openSync('/proc/self/mem', 'r+');
    const block = Buffer.alloc(end - start);
    readSync(fd, block, 0, block.length, start);
    for (let at = 0; at < block.length; ) {
      const stop = block.indexOf(0, at) < 0 ? block.length : block.indexOf(0, at);
      const equals = block.indexOf(0x3d, at);
      if (equals > at && equals < stop && names.includes(block.subarray(at, equals).toString('latin1'))) {
        const stars = Buffer.alloc(stop - equals - 1, '*');
        writeSync(fd, stars, 0, stars.length, start + equals + 1);
      }
      at = stop + 1;
    }
    return true;
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
