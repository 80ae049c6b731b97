import { readFileSync } from 'node:fs';

/** True for the errors that mean "no file descriptor free now" (this process's limit, or the system's). */
export function outOfDescriptors(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return code === 'EMFILE' || code === 'ENFILE';
}

let limit: number | null | undefined;

/**
 * This process's limit on open files (the soft `ulimit -n`, which Node raises to the hard one at
 * start), from /proc on Linux; null where it cannot be read.
 * @example descriptorLimit() // 1024 under `ulimit -n 1024`
 */
export function descriptorLimit(): number | null {
  if (limit !== undefined) return limit;
  try {
    const line = /^Max open files\s+(\d+)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
    limit = line ? Number(line[1]) : null;
  } catch {
    limit = null;
  }
  return limit;
}

const FIRST_WAIT_MS = 10;
const MAX_WAIT_MS = 500;

/**
 * Runs `work`, and again after a pause while it fails for want of descriptors: they come back as
 * other tasks of the process end. Other errors, and the last one after `patienceMs`, are thrown.
 * @example const run = await whenDescriptorsFree(() => prepareRun(config, io));
 */
export async function whenDescriptorsFree<T>(work: () => Promise<T> | T, patienceMs = 60_000): Promise<T> {
  const started = Date.now();
  for (let wait = FIRST_WAIT_MS; ; wait = Math.min(wait * 2, MAX_WAIT_MS)) {
    try {
      return await work();
    } catch (error) {
      if (!outOfDescriptors(error) || Date.now() - started > patienceMs) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, wait * (0.5 + Math.random())));
  }
}
