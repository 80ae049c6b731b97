/**
 * The tool-session baseline's child process: the least a Node program can do for the same
 * session. It POSTs the growing conversation to $BENCH_API_URL/v1/messages with node:http, reads
 * the SSE lines, answers each tool_use by reading the file it names from $BENCH_WORKSPACE,
 * appends every message as a JSON line to a transcript, and prints the final text
 * (plain-http-session.ts).
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { plainSession } from './plain-http-session.js';

const text = await plainSession({
  apiUrl: process.env.BENCH_API_URL ?? '',
  workspace: process.env.BENCH_WORKSPACE ?? process.cwd(),
  transcript: path.join(mkdtempSync(path.join(os.tmpdir(), 'xagent-bench-plain-')), 'transcript.jsonl'),
  prompt: process.argv.slice(2).join(' '),
});
process.stdout.write(`${text}\n`);
