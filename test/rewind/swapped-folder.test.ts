import { mkdirSync, readdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sessionCheckpoints } from '../../src/rewind/checkpointer.js';
import { rewindSession } from '../../src/rewind/rewind.js';
import { createWriteFileTool } from '../../src/tools/builtin/write-file.js';
import { tempDir } from '../support/engine-harness.js';

const signal = new AbortController().signal;
const prompt = (text: string) => `${JSON.stringify({ v: 3, role: 'user', content: [{ type: 'text', text }] })}\n`;

/**
 * Issue 38: between the rewind's plan and its writes, a folder is swapped for a link to outside
 * (here while the person is asked about a conflict). Every write goes through its folder opened
 * without following links and checked on the descriptor: the rewind fails, nothing outside changes.
 */
describe('a folder swapped for a link after the rewind planned', () => {
  it('is refused at the write: REWIND_FAILED, the outside folder untouched, the workspace as it was', async () => {
    const session = tempDir('xagent-swap-session-');
    const workspace = tempDir('xagent-swap-ws-');
    const outside = tempDir('xagent-swap-outside-');
    writeFileSync(path.join(outside, 'a.txt'), 'outside a\n');
    mkdirSync(path.join(workspace, 'conf'));
    writeFileSync(path.join(workspace, 'conf', 'a.txt'), 'a before\n');
    writeFileSync(path.join(workspace, 'b.txt'), 'b before\n');
    const checkpoints = sessionCheckpoints(session, {});
    const write = (file: string, content: string) =>
      createWriteFileTool().execute({ input: { path: file, content }, signal, workspace, checkpoints });
    writeFileSync(path.join(session, 'transcript.jsonl'), prompt('first'));
    await write('conf/a.txt', 'a by xagent\n');
    await write('b.txt', 'b by xagent\n');
    // b.txt changed by hand: a conflict, so the rewind asks; the swap happens while it asks.
    writeFileSync(path.join(workspace, 'b.txt'), 'b by hand\n');

    const attempt = rewindSession({
      sessionDir: session,
      sessionId: 's',
      to: 1,
      code: true,
      conversation: false,
      workspace,
      confirm: async () => {
        renameSync(path.join(workspace, 'conf'), path.join(workspace, 'conf.real'));
        symlinkSync(outside, path.join(workspace, 'conf'));
        return true;
      },
    });
    await expect(attempt).rejects.toMatchObject({ code: 'REWIND_FAILED' });
    expect(readdirSync(outside)).toEqual(['a.txt']);
    expect(readFileSync(path.join(outside, 'a.txt'), 'utf8')).toBe('outside a\n');
    expect(readFileSync(path.join(workspace, 'b.txt'), 'utf8')).toBe('b by hand\n');
    expect(readFileSync(path.join(workspace, 'conf.real', 'a.txt'), 'utf8')).toBe('a by xagent\n');
  });
});
