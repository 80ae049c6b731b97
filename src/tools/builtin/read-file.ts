import { closeSync, readSync } from 'node:fs';
import type { Tool } from '../types.js';
import { looksBinary, openRegularFile } from '../open-regular.js';
import { fsErrorResult } from '../fs-errors.js';
import { fail, ok } from '../result.js';
import { MAX_RESULT_CHARS } from '../truncate.js';
import { resolveInWorkspace } from '../workspace.js';

const DEFAULT_LIMIT = 2000;
const MAX_LINE_CHARS = 2000;
// Enough bytes for MAX_LINE_CHARS characters of up to four bytes each.
const KEEP_BYTES = MAX_LINE_CHARS * 4;
const CHUNK_BYTES = 1 << 20;
/** 16 MiB between turns of the event loop: a few ms of reading. */
const YIELD_EVERY = 16;

interface ReadFileInput {
  path: string;
  offset?: number;
  limit?: number;
}

export const readFileTool: Tool = {
  name: 'read_file',
  description:
    'Read a text file in the workspace. Returns its lines numbered like `cat -n` (line number, tab, text). ' +
    `Reads at most ${DEFAULT_LIMIT} lines and about ${MAX_RESULT_CHARS} characters at a time; for more, call again ` +
    'with `offset` (the first line to read, 1-based) and `limit` (how many lines). Lines longer than ' +
    `${MAX_LINE_CHARS} characters are cut. Binary files are refused. Use list_dir for folders and glob to find files.`,
  inputSchema: {
    type: 'object',
    properties: {
      path: { type: 'string', description: 'File path, relative to the workspace root.' },
      offset: { type: 'integer', minimum: 1, description: 'First line to read, 1-based. Default 1.' },
      limit: { type: 'integer', minimum: 1, description: `Number of lines to read. Default ${DEFAULT_LIMIT}.` },
    },
    required: ['path'],
    additionalProperties: false,
  },
  readOnly: true,
  async execute({ input, workspace, signal }) {
    const { path: requested, offset = 1, limit = DEFAULT_LIMIT } = input as ReadFileInput;
    const resolved = await resolveInWorkspace(workspace, requested);
    if (!resolved.ok) return fail(resolved.message);
    const { absolute, display } = resolved;
    try {
      const opened = openRegularFile(absolute, display);
      if ('result' in opened) return opened.result;
      try {
        if (looksBinary(opened.fd)) {
          return fail(`${display} looks like a binary file (it contains NUL bytes); read_file only reads text.`);
        }
        return await readLines({ fd: opened.fd, size: opened.size, display, offset, limit, signal });
      } finally {
        closeSync(opened.fd);
      }
    } catch (error) {
      return fsErrorResult(error, display);
    }
  },
};

/**
 * Reads the file in chunks and splits lines on bytes, keeping only the start of each shown line:
 * a huge log, or one line of hundreds of megabytes, costs memory only for what is shown.
 */
async function readLines(args: { fd: number; size: number; display: string; offset: number; limit: number; signal: AbortSignal }) {
  const { fd, size, display, offset, limit, signal } = args;
  // Room for the notice that may follow.
  const budget = MAX_RESULT_CHARS - 400;
  const out: string[] = [];
  let used = 0;
  let lineNo = 0;
  let last = offset - 1;
  let cutLines = 0;
  let stoppedForSize = false;
  // The line being read: its first KEEP_BYTES bytes, and how many bytes it has in all.
  let kept: Buffer[] = [];
  let keptBytes = 0;
  let lineBytes = 0;
  const endLine = () => {
    lineNo++;
    const wanted = lineNo >= offset && lineNo < offset + limit && !stoppedForSize;
    if (wanted) {
      let line = Buffer.concat(kept).toString('utf8');
      const whole = lineBytes <= KEEP_BYTES;
      if (whole && line.endsWith('\r')) line = line.slice(0, -1);
      let text = line;
      if (!whole || line.length > MAX_LINE_CHARS) {
        const size = whole ? `${line.length} characters` : `${lineBytes} bytes`;
        text = `${line.slice(0, MAX_LINE_CHARS)} [line cut at ${MAX_LINE_CHARS} of ${size}]`;
        cutLines++;
      }
      const numbered = `${String(lineNo).padStart(6)}\t${text}`;
      if (used + numbered.length + 1 > budget && out.length > 0) stoppedForSize = true;
      else {
        out.push(numbered);
        used += numbered.length + 1;
        last = lineNo;
      }
    }
    kept = [];
    keptBytes = 0;
    lineBytes = 0;
  };
  // Sized to the file (a file that grew since is read in more passes): zeroing a 1 MiB buffer
  // for a small file was most of read_file's CPU. Only bytes read are looked at, so no zeroing.
  const chunk = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, size + 1));
  for (let position = 0, chunks = 0; ; chunks++) {
    // Reads are synchronous (open-regular.ts says why); every YIELD_EVERY chunks the event loop gets
    // a turn, so Ctrl-C and --timeout reach a read of a multi-gigabyte file at once (issue 31, L5).
    if (chunks % YIELD_EVERY === YIELD_EVERY - 1) await new Promise((resolve) => setImmediate(resolve));
    signal.throwIfAborted();
    const bytesRead = readSync(fd, chunk, 0, chunk.length, position);
    if (bytesRead === 0) break;
    position += bytesRead;
    let start = 0;
    while (start < bytesRead) {
      const newline = chunk.indexOf(10, start);
      const end = newline === -1 || newline >= bytesRead ? bytesRead : newline;
      const wanted = lineNo + 1 >= offset && lineNo + 1 < offset + limit && !stoppedForSize;
      if (wanted && keptBytes < KEEP_BYTES) {
        const piece = chunk.subarray(start, Math.min(end, start + KEEP_BYTES - keptBytes));
        kept.push(Buffer.from(piece));
        keptBytes += piece.length;
      }
      lineBytes += end - start;
      if (end === bytesRead) break;
      endLine();
      start = end + 1;
    }
    // Past the last wanted line, the rest is only counted.
  }
  if (lineBytes > 0 || keptBytes > 0) endLine();
  const total = lineNo;
  if (total === 0) return ok(`${display} is empty (0 lines).`);
  if (offset > total) return fail(`offset ${offset} is past the end of ${display}, which has ${total} lines.`);

  const notices: string[] = [];
  if (last < total) {
    const why = stoppedForSize ? `the ${MAX_RESULT_CHARS}-character limit` : `the line limit (${limit})`;
    notices.push(
      `[Showing lines ${offset}-${last} of ${total}, stopped by ${why}. ` + `To read more, call read_file with offset=${last + 1}.]`,
    );
  }
  if (cutLines > 0) notices.push(`[${cutLines} long line(s) were cut at ${MAX_LINE_CHARS} characters.]`);
  return ok([out.join('\n'), ...notices].join('\n'));
}
