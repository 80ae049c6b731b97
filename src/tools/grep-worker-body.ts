import type { GrepMatch } from './grep-engine.js';

/** What the JavaScript grep's worker thread gets. */
export interface GrepWorkerInput {
  pattern: string;
  ignoreCase: boolean;
  files: ReadonlyArray<{ absolute: string; relative: string }>;
  maxCollectedChars: number;
  /** A line longer than this is not searched (a JavaScript string cannot hold much more), and said so. */
  maxLineChars: number;
}

/** What it posts back once, at the end. */
export interface GrepWorkerOutput {
  matches: GrepMatch[];
  truncated: boolean;
  /** Files with lines too long to search: path and count. */
  longLines: Array<{ path: string; lines: number }>;
}

/**
 * The body of the JavaScript grep's worker thread, run from its source text (`toString()`), so it
 * must stay self-contained: no imports, no helpers from outside, modules only through `load`
 * (a bundler would rewrite a `require` written here). Files are read in 1 MiB chunks and searched
 * line by line, never loaded whole: a 3 GB file costs one chunk and one line of memory. A file
 * with a NUL byte anywhere is binary and skipped, as ripgrep does.
 */
export function grepWorkerMain(load: (id: string) => unknown): void {
  const threads = load('node:worker_threads') as typeof import('node:worker_threads');
  const fs = load('node:fs') as typeof import('node:fs');
  const { StringDecoder } = load('node:string_decoder') as typeof import('node:string_decoder');
  const input = threads.workerData as GrepWorkerInput;
  const regex = new RegExp(input.pattern, input.ignoreCase ? 'i' : '');
  const output: GrepWorkerOutput = { matches: [], truncated: false, longLines: [] };
  let collected = 0;
  const chunk = Buffer.alloc(1 << 20);

  const searchFile = (absolute: string, relative: string): void => {
    let fd: number;
    try {
      fd = fs.openSync(absolute, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK | fs.constants.O_NOFOLLOW);
    } catch {
      return; // gone or unreadable since the walk: as if it were not there
    }
    const found: GrepMatch[] = [];
    let foundChars = 0;
    let long = 0;
    try {
      if (!fs.fstatSync(fd).isFile()) return;
      const decoder = new StringDecoder('utf8');
      let pending = '';
      let tooLong = false;
      let lineNumber = 0;
      const test = (line: string) => {
        lineNumber += 1;
        if (!regex.test(line)) return;
        found.push({ path: relative, line: lineNumber, text: line });
        foundChars += line.length;
      };
      for (;;) {
        const read = fs.readSync(fd, chunk, 0, chunk.length, null);
        if (read === 0) break;
        if (chunk.subarray(0, read).includes(0)) return; // binary: no match counts
        const text = decoder.write(chunk.subarray(0, read));
        let start = 0;
        for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
          const piece = text.slice(start, end);
          start = end + 1;
          if (tooLong || pending.length + piece.length > input.maxLineChars) {
            lineNumber += 1;
            long += 1;
          } else test(pending + piece);
          tooLong = false;
          pending = '';
          if (collected + foundChars > input.maxCollectedChars) break;
        }
        if (collected + foundChars > input.maxCollectedChars) break;
        if (!tooLong) pending += text.slice(start);
        if (pending.length > input.maxLineChars) {
          tooLong = true;
          pending = '';
        }
      }
      const rest = pending + decoder.end();
      if (tooLong || rest.length > input.maxLineChars) {
        lineNumber += 1;
        long += 1;
      } else if (rest !== '') test(rest);
    } finally {
      fs.closeSync(fd);
    }
    output.matches.push(...found);
    collected += foundChars;
    if (long > 0) output.longLines.push({ path: relative, lines: long });
  };

  for (const file of input.files) {
    searchFile(file.absolute, file.relative);
    if (collected > input.maxCollectedChars) {
      output.truncated = true;
      break;
    }
  }
  threads.parentPort?.postMessage(output);
}
