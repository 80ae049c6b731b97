import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { query } from '../engine/query.js';
import { createScriptedClient } from '../model/scripted.js';
import { ToolRegistry } from '../tools/registry.js';
import { builtinTools } from '../tools/builtin/index.js';
import { createPermissionPolicy } from '../permissions/index.js';
import { sessionDir } from '../sessions/layout.js';
import { openSessionWriter } from '../sessions/session-writer.js';
import { describeCall } from './output/text.js';

/**
 * `npm start`: the seed's regression through the real engine and real tools, offline. A scripted
 * model first sends an invalid read_file input, corrects it, then answers.
 */
const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const home = process.env.XAGENT_HOME ?? mkdtempSync(path.join(os.tmpdir(), 'xagent-demo-'));
const model = createScriptedClient({
  responses: [
    { content: [{ type: 'text', text: 'Let me read the package manifest.' }, { type: 'tool_use', name: 'read_file', input: { path: 42 } }] },
    { content: [{ type: 'tool_use', name: 'read_file', input: { path: 'package.json', limit: 5 } }] },
    { text: 'package.json names the project "xagent" and its bin; the demo is done.' },
  ],
});

const sessionId = `demo-${Date.now()}`;
process.stdout.write(`xagent demo: scripted model, real engine and tools, workspace ${projectRoot}\n\n`);
for await (const event of query('What is this project called?', {
  model,
  tools: new ToolRegistry(builtinTools()),
  permissions: createPermissionPolicy({ mode: 'default', rules: [], workspace: projectRoot }),
  workspace: projectRoot,
  sessionId,
  session: openSessionWriter(sessionDir(home, sessionId), sessionId),
})) {
  switch (event.type) {
    case 'state': {
      const detail = event.name === 'done' ? `(${event.reason})` : event.error ? `  ${event.error.code}` : '';
      process.stdout.write(`→ ${event.name.padEnd(18)} turn ${event.turn}  tools ${event.tool_call_count}${detail ? `  ${detail}` : ''}\n`);
      break;
    }
    case 'tool_start':
      process.stdout.write(`    ⏺ ${describeCall(event.call)}\n`);
      break;
    case 'tool_result':
      process.stdout.write(`    ${event.result.is_error ? '✗' : '⎿'} ${event.result.content.split('\n')[0]}\n`);
      break;
    case 'result':
      process.stdout.write(`\nstop reason: ${event.reason}\nanswer: ${event.text}\ntrace: ${event.trace_path}\n`);
      break;
    default:
      break;
  }
}
