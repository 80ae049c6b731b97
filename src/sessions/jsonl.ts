import { appendFileSync, existsSync, readFileSync, truncateSync } from 'node:fs';

/** A line that could not be used: torn (the last line, cut off by a crash) or malformed. */
export interface LineProblem {
  /** 1-based line number. */
  line: number;
  kind: 'torn' | 'malformed';
  detail: string;
}

export interface JsonLines {
  values: Array<{ line: number; value: unknown }>;
  problems: LineProblem[];
}

/**
 * Reads a JSONL file written one line per write(2). A last line without its newline whose JSON
 * does not parse is `torn` (the process died mid-write); a bad line elsewhere is `malformed`.
 * Neither is fatal: the caller decides what to say. A missing file reads as empty.
 * @example const { values, problems } = readJsonLines('/home/me/.xagent/sessions/abc/transcript.jsonl');
 */
export function readJsonLines(file: string): JsonLines {
  if (!existsSync(file)) return { values: [], problems: [] };
  const text = readFileSync(file, 'utf8');
  const segments = text.split('\n');
  // After the last newline: '' for a whole file, else a line whose newline never made it.
  const tail = segments.pop() ?? '';
  const values: JsonLines['values'] = [];
  const problems: LineProblem[] = [];
  segments.forEach((segment, i) => {
    if (segment.trim() === '') return;
    const parsed = parseJson(segment);
    if (parsed.ok) values.push({ line: i + 1, value: parsed.value });
    else problems.push({ line: i + 1, kind: 'malformed', detail: parsed.error });
  });
  if (tail.trim() !== '') {
    const parsed = parseJson(tail);
    if (parsed.ok) values.push({ line: segments.length + 1, value: parsed.value });
    else problems.push({ line: segments.length + 1, kind: 'torn', detail: `${Buffer.byteLength(tail)} bytes without a newline` });
  }
  return { values, problems };
}

/**
 * Makes a JSONL file safe to append to again: a torn last line is cut off (it can never parse, and
 * the next line appended would be glued to it), and a whole last line missing only its newline
 * gets one. Returns what was done, or null when the file was already clean.
 * @example healTornTail(transcriptPath) // => 'dropped a torn last line (41 bytes)'
 */
export function healTornTail(file: string): string | null {
  if (!existsSync(file)) return null;
  const buffer = readFileSync(file);
  if (buffer.length === 0 || buffer[buffer.length - 1] === 0x0a) return null;
  const lastNewline = buffer.lastIndexOf(0x0a);
  const tail = buffer.subarray(lastNewline + 1).toString('utf8');
  if (parseJson(tail).ok) {
    appendFileSync(file, '\n');
    return 'added the missing newline after the last line';
  }
  truncateSync(file, lastNewline + 1);
  return `dropped a torn last line (${buffer.length - lastNewline - 1} bytes)`;
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}
