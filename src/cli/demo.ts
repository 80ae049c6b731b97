import { hasTag, TAG } from '../../machines/state-tags.js';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createScriptedClient } from '../model/scripted.js';
import { describeCall } from '../terminal/tool-activity.js';
import type { Renderer } from '../terminal/renderer.js';
import { prepareRun } from '../run/prepare-run.js';
import { policyFor } from '../run/run-config.js';
import { resolveRunConfig } from '../run/run-flags.js';

/**
 * `npm start`: the seed's regression through the real engine and real tools, offline. A scripted
 * model first sends an invalid read_file input, corrects it, then answers. It starts the way every
 * run starts (resolveRunConfig, then prepareRun), with the scripted model in place of the API.
 */
const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const home = process.env.XAGENT_HOME ?? mkdtempSync(path.join(os.tmpdir(), 'xagent-demo-'));
const model = createScriptedClient({
  responses: [
    {
      content: [
        { type: 'text', text: 'Let me read the package manifest.' },
        { type: 'tool_use', name: 'read_file', input: { path: 42 } },
      ],
    },
    { content: [{ type: 'tool_use', name: 'read_file', input: { path: 'package.json', limit: 5 } }] },
    { text: 'package.json names the project "xagent" and its bin; the demo is done.' },
  ],
});

const out = (line: string) => process.stdout.write(`${line}\n`);
/** The demo shows the chart's steps as they happen, which no output format of -p does. */
const stepsRenderer: Renderer = {
  onEvent(event) {
    switch (event.type) {
      case 'state': {
        const detail = hasTag(event, TAG.final) ? `(${event.reason})` : event.error ? `  ${event.error.code}` : '';
        out(`→ ${event.name.padEnd(18)} turn ${event.turn}  tools ${event.tool_call_count}${detail ? `  ${detail}` : ''}`);
        break;
      }
      case 'tool_start':
        out(`    ⏺ ${describeCall(event.call)}`);
        break;
      case 'tool_result':
        out(`    ${event.result.is_error ? '✗' : '⎿'} ${event.result.content.split('\n')[0]}`);
        break;
      default:
        break;
    }
  },
  finish(result) {
    out(`\nstop reason: ${result.reason}\nanswer: ${result.text}\ntrace: ${result.trace_path}`);
  },
};

const config = resolveRunConfig({ cwd: projectRoot, model: 'scripted-demo' }, [], { ...process.env, XAGENT_HOME: home }, () => model);
out(`xagent demo: scripted model, real engine and tools, workspace ${projectRoot}\n`);
const run = await prepareRun(config, { stderr: process.stderr });
try {
  await run.runTask({
    prompt: 'What is this project called?',
    permissions: policyFor(config),
    signal: new AbortController().signal,
    renderer: stepsRenderer,
  });
} finally {
  await run.close();
}
