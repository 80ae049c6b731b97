import { closeSync, openSync, writeSync } from 'node:fs';

/**
 * Lines on their way to the end of files, written in groups: the lines queued during one stretch
 * of synchronous work leave together when it ends (a microtask), one write(2) per file on a
 * descriptor opened for that write and closed after it. So a thousand tasks hold no session file
 * open between writes, a round's dozen lines cost one write per file, and a crash still tears at
 * most the last line. Out of descriptors (EMFILE, ENFILE), the lines wait and are written when
 * some are free again; never thrown at the writer, whose work goes on.
 */
export interface LineGroups {
  /** Queues `line` (without its newline) for the end of `file`. */
  append(file: string, line: string): void;
  /** Writes everything queued now (a task's end, a reader about to read the files). */
  flush(): void;
}

/** Every group with lines not written yet, so a reader in this process can have them written first. */
const unwritten = new Set<{ flush(): void }>();

/** Writes every queued line of every session in this process: call before reading a session file that is being written. */
export function flushSessionLines(): void {
  for (const group of [...unwritten]) group.flush();
}

const RETRY_FIRST_MS = 10;
const RETRY_MAX_MS = 1_000;

/**
 * A group of files written together (one task's session files).
 * `report` hears a write that failed for a reason other than descriptors (a full disk, a removed
 * folder): those lines are dropped, as a write(2) that fails drops them.
 * @example const files = lineGroups(); files.append(tracePath, JSON.stringify(record)); // on disk after this synchronous stretch
 */
export function lineGroups(report: (file: string, error: NodeJS.ErrnoException) => void = () => {}): LineGroups {
  const queued = new Map<string, string[]>();
  let scheduled = false;
  let retry: NodeJS.Timeout | undefined;
  let retryMs = RETRY_FIRST_MS;
  const group: LineGroups = {
    append(file, line) {
      const lines = queued.get(file);
      if (lines) lines.push(line);
      else queued.set(file, [line]);
      unwritten.add(group);
      if (!scheduled && retry === undefined) {
        scheduled = true;
        queueMicrotask(() => {
          scheduled = false;
          group.flush();
        });
      }
    },
    flush() {
      for (const [file, lines] of queued) {
        try {
          appendWhole(file, `${lines.join('\n')}\n`);
          queued.delete(file);
        } catch (error) {
          const failure = error as NodeJS.ErrnoException;
          if (failure.code === 'EMFILE' || failure.code === 'ENFILE') {
            waitForDescriptors();
            return;
          }
          queued.delete(file);
          report(file, failure);
        }
      }
      unwritten.delete(group);
      retryMs = RETRY_FIRST_MS;
    },
  };
  // Descriptors come back as other work ends: try again soon, then less often.
  const waitForDescriptors = () => {
    if (retry !== undefined) return;
    retry = setTimeout(() => {
      retry = undefined;
      group.flush();
    }, retryMs);
    retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
  };
  return group;
}

function appendWhole(file: string, text: string): void {
  const fd = openSync(file, 'a');
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
}
