import { benchScript, cliEnv, cliPath, runNode, tempWorkspace } from './child.js';
import { startFakeApi, type FakeApi } from './fake-api.js';
import { interleave, summarize } from './stats.js';
import type { Row } from './table.js';

export const PASS_THROUGH_TARGET_MS = 2;

/** A marker no other delta contains: request n, delta i. */
const marker = (n: number, i: number) => `<${n}.${i}>`;

/**
 * Runs one child against the fake and returns, for each delta, ms from the fake writing it to
 * its bytes arriving on the child's stdout pipe.
 */
async function passThrough(api: FakeApi, args: string[], env: NodeJS.ProcessEnv, cwd: string, deltas: number): Promise<number[]> {
  const firstDelta = api.written.length;
  const seenAt: Array<{ text: string; at: number }> = [];
  let stdout = '';
  let searchFrom = 0;
  const run = await runNode(args, {
    cwd,
    env,
    onStdout: (chunk, at) => {
      stdout += chunk;
      // Deltas arrive in order; a marker may be split over two chunks, so search the whole output.
      // stream-json's result event repeats the whole text: only the deltas before it count.
      const result = stdout.indexOf('"type":"result"');
      const scanned = result === -1 ? stdout : stdout.slice(0, result);
      for (;;) {
        const match = /<\d+\.\d+>/.exec(scanned.slice(searchFrom));
        if (!match) break;
        seenAt.push({ text: match[0], at });
        searchFrom += match.index + match[0].length;
      }
    },
  });
  const written = api.written.slice(firstDelta);
  if (run.code !== 0 || written.length !== deltas || seenAt.length !== deltas) {
    throw new Error(`streaming run failed (exit ${run.code}, ${written.length} written, ${seenAt.length} seen): ${run.stderr}`);
  }
  return written.map((w, i) => {
    if (seenAt[i]!.text !== w.text) throw new Error(`delta ${w.text} arrived as ${seenAt[i]!.text}`);
    return seenAt[i]!.at - w.at;
  });
}

/**
 * Benchmark 4: per text delta, the time from the fake API writing its SSE chunk to the bytes on
 * the CLI's stdout (`--output-format stream-json`), against a minimal node:http child that does only that.
 * @example const rows = await streamingRows({ runs: 4, deltas: 15, spacingMs: 20 });
 */
export async function streamingRows(options: { runs: number; deltas: number; spacingMs: number }): Promise<Row[]> {
  const api = await startFakeApi({
    deltas: (n) => Array.from({ length: options.deltas }, (_, i) => marker(n, i)),
    spacingMs: options.spacingMs,
  });
  const workspace = tempWorkspace();
  const baseline: number[] = [];
  const subject: number[] = [];
  try {
    await interleave(
      options.runs,
      async () => {
        baseline.push(
          ...(await passThrough(api, [benchScript('stream-echo')], { ...process.env, BENCH_API_URL: api.url }, workspace, options.deltas)),
        );
        return 0;
      },
      async () => {
        // stream-json: text mode on a pipe holds each turn's text until it is known to be the answer
        // (stdout is answer-only), so stream-json is what streams to a program.
        const args = [cliPath, '-p', '--output-format', 'stream-json', 'stream'];
        subject.push(...(await passThrough(api, args, cliEnv(api.url), workspace, options.deltas)));
        return 0;
      },
      { warmup: false },
    );
  } finally {
    await api.close();
  }
  const value = summarize(subject);
  return [
    {
      name: `4. streaming pass-through per delta (stream-json, ${subject.length} deltas)`,
      unit: 'ms',
      value,
      baseline: { name: 'node:http echo', value: summarize(baseline) },
      target: `< ${PASS_THROUGH_TARGET_MS} ms`,
      met: value.median < PASS_THROUGH_TARGET_MS,
    },
  ];
}
