// Run by many-tasks.slow.test.ts under `ulimit -n 1024`: COUNT library tasks at once in this one
// process, through query() or runBatch (MODE), against the fake at ANTHROPIC_BASE_URL. Prints one
// JSON line: how many results, their reasons, and every exception that escaped.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const { query, runBatch } = await import(process.env.XAGENT_LIB);
const count = Number(process.env.COUNT);
const workspace = mkdtempSync(path.join(os.tmpdir(), 'xagent-many-'));
const options = { cwd: workspace, readSettings: false, stderr: null };
const reasons = {};
const escaped = [];
let results = 0;
const note = (result) => {
  results++;
  reasons[result.reason] = (reasons[result.reason] ?? 0) + 1;
};
const started = Date.now();
if (process.env.MODE === 'query') {
  await Promise.all(
    Array.from({ length: count }, async (_, i) => {
      try {
        for await (const event of query(`Batch task q${i}: list the folder, then say done.`, options)) {
          if (event.type === 'result') note(event);
        }
      } catch (error) {
        escaped.push(String(error?.stack ?? error));
      }
    }),
  );
} else {
  try {
    const tasks = Array.from({ length: count }, (_, i) => ({ id: `b${i}`, prompt: `Batch task b${i}: list the folder, then say done.` }));
    for await (const result of runBatch(tasks, { ...options, concurrency: count })) note(result);
  } catch (error) {
    escaped.push(String(error?.stack ?? error));
  }
}
process.stdout.write(
  `${JSON.stringify({ results, reasons, escaped: escaped.slice(0, 5), escapedCount: escaped.length, ms: Date.now() - started })}\n`,
);
