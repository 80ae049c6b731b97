import { existsSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { isDiskFailure, SessionWriteError } from '../../src/sessions/disk-failure.js';
import { openSessionWriter } from '../../src/sessions/session-writer.js';
import { tempDir } from '../support/engine-harness.js';

const errno = (code: string) => Object.assign(new Error(`${code}: failed`), { code });

describe('issue 38: session writes the disk refuses', () => {
  it.skipIf(!existsSync('/dev/full'))('a line the disk refuses (ENOSPC, /dev/full) is reported once, and nothing more is written', () => {
    const dir = tempDir('xagent-full-');
    symlinkSync('/dev/full', path.join(dir, 'trace.jsonl'));
    const failures: SessionWriteError[] = [];
    const sink = openSessionWriter(dir, 's1', { onFailure: (failure) => failures.push(failure) });
    sink.record({ event: 'task_start' } as never, new Date().toISOString());
    sink.record({ event: 'task_start' } as never, new Date().toISOString());
    sink.message({ role: 'user', content: [{ type: 'text', text: 'hi' }] });
    sink.close();
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({ code: 'SESSION_DISK_FULL', fault: 'system', file: path.join(dir, 'trace.jsonl') });
    expect(failures[0]?.message).toContain('xagent --resume s1');
  });

  it.skipIf(!existsSync('/dev/full'))('without a listener (the library), a refused line is a warning and the task goes on', () => {
    const dir = tempDir('xagent-full-');
    symlinkSync('/dev/full', path.join(dir, 'audit.jsonl'));
    const warnings: string[] = [];
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      warnings.push(String(chunk));
      return true;
    });
    try {
      const sink = openSessionWriter(dir, 's2');
      sink.audit({} as never);
      expect(() => sink.close()).not.toThrow();
    } finally {
      spy.mockRestore();
    }
    expect(warnings).toEqual(['xagent: warning: session s2: audit.jsonl not written (ENOSPC)\n']);
  });

  it('EIO, EDQUOT, EFBIG and EROFS are disk failures too; EACCES is not', () => {
    for (const code of ['ENOSPC', 'EIO', 'EDQUOT', 'EFBIG', 'EROFS']) expect(isDiskFailure(errno(code))).toBe(true);
    expect(isDiskFailure(errno('EACCES'))).toBe(false);
    const eio = new SessionWriteError('/h/sessions/s/trace.jsonl', errno('EIO'), 's');
    expect(eio.code).toBe('SESSION_WRITE_FAILED');
    expect(eio.message).toContain('trace.jsonl: EIO, an input/output error from the device');
    expect(eio.message).toContain('fix the disk');
  });
});
