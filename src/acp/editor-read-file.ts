import type { AgentContext } from '@agentclientprotocol/sdk';
import { readFileTool } from '../tools/builtin/read-file.js';
import { fail, ok } from '../tools/result.js';
import { MAX_RESULT_CHARS } from '../tools/truncate.js';
import type { Tool } from '../tools/types.js';
import { resolveInWorkspace } from '../tools/workspace.js';

const DEFAULT_LIMIT = 2000;
const MAX_LINE_CHARS = 2000;

interface ReadFileInput {
  path: string;
  offset?: number;
  limit?: number;
}

/**
 * `read_file` through the editor (`fs/read_text_file`), for a client that offers it: the model
 * sees the buffer the person sees, unsaved edits included. The same name, schema and output as
 * the built-in (numbered lines, `offset`/`limit`, long lines cut), and the same confinement: the
 * path is resolved in the workspace first, so the editor is never asked for a file outside it.
 * When the editor cannot read the file (it does not exist, is binary, the editor errs), the
 * built-in reads the disk, so the model gets its usual, actionable error.
 * @example new ToolRegistry([editorReadFileTool({ client, sessionId }), ...others])
 */
export function editorReadFileTool({
  client,
  sessionId,
}: {
  client: Pick<AgentContext, 'request'>;
  /** Asked at each call: the session's id is known only once the run is prepared, after the tools. */
  sessionId: () => string;
}): Tool {
  return {
    ...readFileTool,
    async execute(context) {
      const { path: requested, offset = 1, limit = DEFAULT_LIMIT } = context.input as ReadFileInput;
      const resolved = await resolveInWorkspace(context.workspace, requested);
      if (!resolved.ok) return fail(resolved.message);
      let content: string;
      try {
        ({ content } = await client.request(
          'fs/read_text_file',
          { sessionId: sessionId(), path: resolved.absolute, line: offset, limit },
          { cancellationSignal: context.signal, stopWaitingOnCancel: true },
        ));
      } catch {
        context.signal.throwIfAborted();
        return readFileTool.execute(context);
      }
      return numbered(content, { display: resolved.display, offset, limit });
    },
  };
}

/** The editor's text (from line `offset` on) as read_file shows a file: `cat -n` numbering, capped. */
function numbered(content: string, { display, offset, limit }: { display: string; offset: number; limit: number }) {
  if (content === '') return offset === 1 ? ok(`${display} is empty (0 lines).`) : fail(`offset ${offset} is past the end of ${display}.`);
  const lines = content.replace(/\n$/, '').split('\n').slice(0, limit);
  const budget = MAX_RESULT_CHARS - 400;
  const out: string[] = [];
  let used = 0;
  let cut = 0;
  for (const [index, raw] of lines.entries()) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const text =
      line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)} [line cut at ${MAX_LINE_CHARS} of ${line.length} characters]` : line;
    if (text !== line) cut++;
    const entry = `${String(offset + index).padStart(6)}\t${text}`;
    if (used + entry.length + 1 > budget && out.length > 0) break;
    out.push(entry);
    used += entry.length + 1;
  }
  const last = offset + out.length - 1;
  const notices: string[] = [];
  // The editor returns at most `limit` lines and does not say how many there are in all.
  if (out.length < lines.length || lines.length === limit) {
    notices.push(`[Showing lines ${offset}-${last}; the file may have more. To read on, call read_file with offset=${last + 1}.]`);
  }
  if (cut > 0) notices.push(`[${cut} long line(s) were cut at ${MAX_LINE_CHARS} characters.]`);
  return ok([out.join('\n'), ...notices].join('\n'));
}
