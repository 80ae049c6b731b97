// One custom tool, one task, the live inspector: `node index.mjs "How many words are in README.md?"`.
// Needs ANTHROPIC_API_KEY (and ANTHROPIC_BASE_URL for another endpoint), like the CLI.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { query, tool } from 'xagent-statechart';

// Runs in this process with this process's rights: it checks its own paths.
const wordCount = tool({
  name: 'word_count',
  description: 'Count the words of a text file in the workspace.',
  inputSchema: {
    type: 'object',
    properties: { path: { type: 'string', description: 'File path, relative to the workspace' } },
    required: ['path'],
    additionalProperties: false,
  },
  readOnly: true,
  async execute({ path: file }, { cwd }) {
    const target = path.resolve(cwd, file);
    if (path.relative(cwd, target).startsWith('..')) return { content: `${file} is outside the workspace`, isError: true };
    const words = (await readFile(target, 'utf8')).split(/\s+/).filter(Boolean).length;
    return `${file}: ${words} words`;
  },
});

const prompt = process.argv.slice(2).join(' ') || 'How many words are in README.md?';
let inspectorUrl = '';
let result;
for await (const event of query(prompt, {
  cwd: process.cwd(),
  tools: [wordCount],
  // The library prints "Inspector: <url>" on stderr as the CLI does, and hands the URL over here.
  inspect: true,
  onInspectorUrl: (url) => {
    inspectorUrl = url;
  },
  // Asked for any call no rule allows (bash, write_file...): this example says no.
  canUseTool: async (name) => ({ behavior: 'deny', message: `${name} is not allowed in this example` }),
})) {
  if (event.type === 'text_delta') process.stdout.write(event.text);
  if (event.type === 'tool_start') console.error(`\n> ${event.call.name} ${JSON.stringify(event.call.input)}`);
  if (event.type === 'tool_result') console.error(`< ${event.result.content}`);
  if (event.type === 'result') {
    result = event;
    console.error(`\n[${event.reason}] ${event.turns} turns, ${event.tool_calls} tool calls`);
    // The run (and its inspector) stays open while this loop body waits: look, then press Enter.
    console.error(`Inspector still serving at ${inspectorUrl}; press Enter to exit.`);
    await new Promise((resolve) => createInterface({ input: process.stdin }).once('line', resolve).once('close', resolve));
  }
}
process.exitCode = result && !result.is_error ? 0 : 1;
