import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach } from 'vitest';
import type { ToolResult } from '../../machines/types.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { createBashTool } from '../../src/tools/builtin/bash.js';

const created: string[] = [];

afterEach(() => {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A test's world: a workspace, a folder outside it with a decoy, a fake home with secrets, an xagent home. */
export interface Layout {
  root: string;
  ws: string;
  outside: string;
  decoy: string;
  home: string;
  secret: string;
  xagentHome: string;
}

export const DECOY_TEXT = 'decoy: must survive\n';

/**
 * Builds the layout under /var/tmp, not /tmp: the sandbox's private /tmp would hide anything under
 * /tmp anyway, and these tests are about the read-only file system and the hidden folders.
 */
export function layout(): Layout {
  const root = realpathSync(mkdtempSync('/var/tmp/xagent-sandbox-test-'));
  created.push(root);
  const ws = path.join(root, 'ws');
  const outside = path.join(root, 'outside');
  const home = path.join(root, 'home');
  const xagentHome = path.join(home, '.xagent');
  for (const dir of [ws, outside, path.join(home, '.ssh'), path.join(xagentHome, 'sessions', 's1')]) mkdirSync(dir, { recursive: true });
  const decoy = path.join(outside, 'decoy.txt');
  writeFileSync(decoy, DECOY_TEXT);
  const secret = path.join(home, '.ssh', 'id_ed25519');
  writeFileSync(secret, 'PRIVATE KEY MATERIAL\n');
  writeFileSync(path.join(home, 'visible.txt'), 'not a secret\n');
  writeFileSync(path.join(xagentHome, 'sessions', 's1', 'transcript.jsonl'), '{"secret":"transcript"}\n');
  writeFileSync(path.join(ws, 'victim.txt'), 'workspace file\n');
  return { root, ws, outside, decoy, home, secret, xagentHome };
}

/** The sandbox a run would build for this layout, with HOME pointing at the fake home. */
export function sandboxFor(l: Layout, options: { network?: boolean } = {}): Sandbox {
  return createSandbox({
    settings: { network: options.network ?? false, hide: [] },
    workspace: l.ws,
    xagentHome: l.xagentHome,
    env: { ...process.env, HOME: l.home },
  });
}

/** One call of the real bash tool, sandboxed when a sandbox is given. */
export function bash(l: Layout, command: string, options: { sandbox?: Sandbox; timeoutMs?: number } = {}): Promise<ToolResult> {
  const tool = createBashTool({ killGraceMs: 300, ...(options.sandbox ? { sandbox: options.sandbox } : {}) });
  const input = { command, ...(options.timeoutMs ? { timeout_ms: options.timeoutMs } : {}) };
  return tool.execute({ input, signal: new AbortController().signal, workspace: l.ws });
}
