import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'vitest';
import { tempDir } from '../support/engine-harness.js';
import { HAVE_SCRIPT } from '../support/pty.js';
import { closeUisAfterEach, startUi } from './ui-harness.js';

closeUisAfterEach();

/** A stdio MCP server that takes `delayMs` to answer initialize, with one tool. */
function slowServer(dir: string, delayMs: number): string {
  const file = path.join(dir, 'slow-server.cjs');
  writeFileSync(
    file,
    `const send = (m) => process.stdout.write(JSON.stringify(m) + '\\n');
require('node:readline').createInterface({ input: process.stdin }).on('line', (line) => {
  const msg = JSON.parse(line);
  if (msg.method === 'initialize') setTimeout(() => send({ jsonrpc: '2.0', id: msg.id, result: { protocolVersion: msg.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'slow', version: '1.0.0' } } }), ${delayMs});
  else if (msg.method === 'tools/list') send({ jsonrpc: '2.0', id: msg.id, result: { tools: [{ name: 'ping', description: 'ping', inputSchema: { type: 'object', properties: {} } }] } });
});
`,
  );
  return file;
}

describe.skipIf(!HAVE_SCRIPT && !process.env.CI)('starting the terminal UI', () => {
  it('shows "Starting MCP servers…" while they start, then what they offer', { timeout: 90_000 }, async () => {
    const workspace = tempDir('xagent-ws-');
    const server = slowServer(workspace, 1500);
    writeFileSync(
      path.join(workspace, '.mcp.json'),
      JSON.stringify({ mcpServers: { slow: { command: process.execPath, args: [server] } } }),
    );
    const ui = await startUi([], { flags: '--trust', workspace });
    const at = await ui.pty.waitFor(/Starting MCP servers… · [\d.]+s/, 0);
    await ui.pty.waitFor('MCP servers: slow · 1 tools', at);
  });
});
