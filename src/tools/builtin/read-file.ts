import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { Tool } from '../types.js';
import { looksBinary } from '../binary.js';
import { fsErrorResult } from '../fs-errors.js';
import { fail, ok } from '../result.js';
import { MAX_RESULT_CHARS } from '../truncate.js';
import { resolveInWorkspace } from '../workspace.js';

const DEFAULT_LIMIT = 2000;
const MAX_LINE_CHARS = 2000;

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
      const info = await stat(absolute);
      if (info.isDirectory()) return fail(`${display} is a directory, use list_dir.`);
      if (!info.isFile()) return fail(`${display} is not a regular file (a device, socket or pipe); refused.`);
      if (await looksBinary(absolute)) {
        return fail(`${display} looks like a binary file (it contains NUL bytes); read_file only reads text.`);
      }
      return await readLines({ absolute, display, offset, limit, signal });
    } catch (error) {
      return fsErrorResult(error, display);
    }
  },
};

/** Streams the file so a huge log costs memory only for the lines shown. */
async function readLines(args: { absolute: string; display: string; offset: number; limit: number; signal: AbortSignal }) {
  const { absolute, display, offset, limit, signal } = args;
  const stream = createReadStream(absolute, { encoding: 'utf8', signal });
  const lines = createInterface({ input: stream, crlfDelay: Infinity });
  // Room for the notice that may follow.
  const budget = MAX_RESULT_CHARS - 400;
  const out: string[] = [];
  let used = 0;
  let lineNo = 0;
  let last = offset - 1;
  let cutLines = 0;
  let stoppedForSize = false;
  for await (const line of lines) {
    lineNo++;
    if (lineNo < offset || lineNo >= offset + limit || stoppedForSize) continue;
    let text = line;
    if (text.length > MAX_LINE_CHARS) {
      text = `${text.slice(0, MAX_LINE_CHARS)} [line cut at ${MAX_LINE_CHARS} of ${line.length} characters]`;
      cutLines++;
    }
    const numbered = `${String(lineNo).padStart(6)}\t${text}`;
    if (used + numbered.length + 1 > budget && out.length > 0) {
      stoppedForSize = true;
      continue;
    }
    out.push(numbered);
    used += numbered.length + 1;
    last = lineNo;
  }
  const total = lineNo;
  if (total === 0) return ok(`${display} is empty (0 lines).`);
  if (offset > total) return fail(`offset ${offset} is past the end of ${display}, which has ${total} lines.`);

  const notices: string[] = [];
  if (last < total) {
    const why = stoppedForSize ? `the ${MAX_RESULT_CHARS}-character limit` : `the line limit (${limit})`;
    notices.push(
      `[Showing lines ${offset}-${last} of ${total}, stopped by ${why}. ` +
        `To read more, call read_file with offset=${last + 1}.]`,
    );
  }
  if (cutLines > 0) notices.push(`[${cutLines} long line(s) were cut at ${MAX_LINE_CHARS} characters.]`);
  return ok([out.join('\n'), ...notices].join('\n'));
}
