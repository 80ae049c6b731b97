import { writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * A tiny hand-written stdio MCP server (plain JSON-RPC lines, no SDK) that misbehaves on request:
 * tool `boom` makes it crash, tool `garbage` makes it answer with a line that is not JSON-RPC,
 * tool `hello` answers. With `banner` it prints garbage before anything else. It starts a
 * grandchild (`sleep`) carrying `marker`, to check the whole tree is stopped.
 * @example const script = writeTinyServer(dir, { marker: dir }); // then { command: process.execPath, args: [script] }
 */
export function writeTinyServer(dir: string, options: { marker: string; banner?: boolean }): string {
  const file = path.join(dir, 'tiny-server.cjs');
  writeFileSync(
    file,
    `
const { spawn } = require('node:child_process');
spawn('sh', ['-c', 'sleep 300; : ' + ${JSON.stringify(options.marker)}], { stdio: 'ignore' });
${options.banner ? "process.stdout.write('Welcome to the tiny server!\\n');" : ''}
const send = (m) => process.stdout.write(JSON.stringify(m) + '\\n');
const tool = (name) => ({ name, description: 'tiny ' + name, inputSchema: { type: 'object', properties: {} } });
require('node:readline').createInterface({ input: process.stdin }).on('line', (line) => {
  const msg = JSON.parse(line);
  if (msg.method === 'initialize') {
    send({ jsonrpc: '2.0', id: msg.id, result: { protocolVersion: msg.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'tiny', version: '1.0.0' } } });
  } else if (msg.method === 'tools/list') {
    send({ jsonrpc: '2.0', id: msg.id, result: { tools: [tool('hello'), tool('boom'), tool('garbage')] } });
  } else if (msg.method === 'tools/call') {
    if (msg.params.name === 'boom') { process.stderr.write('fatal: boom went off\\n'); process.exit(3); }
    if (msg.params.name === 'garbage') process.stdout.write('this is not json\\n');
    if (msg.params.name === 'hello') send({ jsonrpc: '2.0', id: msg.id, result: { content: [{ type: 'text', text: 'hello back' }] } });
  }
});
`,
  );
  return file;
}
