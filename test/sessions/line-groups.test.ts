import { readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { flushSessionLines, lineGroups } from '../../src/sessions/line-groups.js';
import { openSessionWriter } from '../../src/sessions/session-writer.js';
import { tempDir } from '../support/engine-harness.js';

/** The files this process holds open under `dir` (Linux). */
const openUnder = (dir: string) =>
  readdirSync('/proc/self/fd').flatMap((fd) => {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      return target.startsWith(dir) ? [target] : [];
    } catch {
      return [];
    }
  });

describe('session lines written in groups', () => {
  it('writes the lines of one synchronous stretch together at its end, in order, holding no file open after', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'trace.jsonl');
    writeFileSync(file, '{"old":true}\n');
    const files = lineGroups();
    files.append(file, '{"n":1}');
    files.append(file, '{"n":2}');
    expect(readFileSync(file, 'utf8')).toBe('{"old":true}\n');
    await Promise.resolve();
    expect(readFileSync(file, 'utf8')).toBe('{"old":true}\n{"n":1}\n{"n":2}\n');
    expect(openUnder(dir)).toEqual([]);
  });

  it('lets a reader in the process have queued lines written first', () => {
    const dir = tempDir();
    const file = path.join(dir, 'audit.jsonl');
    lineGroups().append(file, '{"a":1}');
    flushSessionLines();
    expect(readFileSync(file, 'utf8')).toBe('{"a":1}\n');
  });

  it('a session writer holds none of its three files open while a task runs, and has them all on disk when closed', async () => {
    const dir = tempDir();
    const sink = openSessionWriter(dir, 'session-1');
    expect(readdirSync(dir).sort()).toEqual(['audit.jsonl', 'trace.jsonl', 'transcript.jsonl']);
    sink.record(
      {
        event: 'task_start',
        model: 'm',
        prompt: 'p',
        limits: { max_turns: 1, max_tool_calls: 1, timeout_ms: 1 },
        instructions: [],
        chart: 'x',
      },
      new Date(0).toISOString(),
    );
    sink.message({ role: 'user', content: [{ type: 'text', text: 'hi' }] });
    await Promise.resolve();
    expect(openUnder(dir)).toEqual([]);
    sink.message({ role: 'assistant', content: [{ type: 'text', text: 'hello' }] });
    sink.close();
    expect(readFileSync(path.join(dir, 'transcript.jsonl'), 'utf8').trim().split('\n')).toHaveLength(2);
    expect(JSON.parse(readFileSync(path.join(dir, 'trace.jsonl'), 'utf8'))).toMatchObject({
      seq: 0,
      event: 'task_start',
      session_id: 'session-1',
    });
  });

  it('a write that fails (no such folder, a full disk) is reported, not thrown at the task', async () => {
    const reports: string[] = [];
    const files = lineGroups((file, error) => reports.push(`${path.basename(file)} ${error.code}`));
    files.append('/proc/version/not-a-file.jsonl', '{}');
    await Promise.resolve();
    expect(reports).toEqual(['not-a-file.jsonl ENOTDIR']);
  });
});
