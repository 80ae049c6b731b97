import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { groupAlive } from '../../src/system/process-group.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The real, unmodified servers installed as dev dependencies. */
export const EVERYTHING = path.join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
export const FILESYSTEM = path.join(root, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');

/**
 * server-everything over stdio. `marker` (the test's workspace) is an extra argument the server
 * ignores, so `processesWith(marker)` finds this test's processes and no other test file's.
 */
export const everythingServer = (marker: string, env?: Record<string, string>) => ({
  command: process.execPath,
  args: [EVERYTHING, 'stdio', marker],
  ...(env ? { env } : {}),
});

/** Writes `<workspace>/.mcp.json`. */
export function writeMcpJson(workspace: string, servers: Record<string, unknown>): void {
  writeFileSync(path.join(workspace, '.mcp.json'), JSON.stringify({ mcpServers: servers }));
}

/** The one session's files under XAGENT_HOME, as text. */
export function sessionFiles(home: string): { dir: string; trace: string; transcript: string; audit: string } {
  const sessions = path.join(home, 'sessions');
  const [id] = readdirSync(sessions);
  const dir = path.join(sessions, id ?? '');
  const read = (name: string) => readFileSync(path.join(dir, name), 'utf8');
  return { dir, trace: read('trace.jsonl'), transcript: read('transcript.jsonl'), audit: read('audit.jsonl') };
}

/** A tool_result block as the fake API received it. */
export interface SentToolResult {
  type: 'tool_result';
  tool_use_id: string;
  content: string;
  is_error?: boolean;
}

/** Every tool_result block the model was sent in a request to the fake API. */
export function toolResults(body: unknown): SentToolResult[] {
  const messages = (body as { messages: Array<{ content: unknown }> }).messages;
  return messages.flatMap((m) => (Array.isArray(m.content) ? (m.content as SentToolResult[]).filter((b) => b.type === 'tool_result') : []));
}

/** Pids of live processes whose command line contains `marker`. */
export function processesWith(marker: string): number[] {
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const cmdline = readFileSync(`/proc/${name}/cmdline`, 'utf8').replaceAll('\0', ' ');
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
      if (cmdline.includes(marker) && state !== 'Z') pids.push(Number(name));
    } catch {
      // gone while we looked
    }
  }
  return pids;
}

export { groupAlive };
