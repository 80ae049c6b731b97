import { describe, expect, it } from 'vitest';
import { tempDir } from '../support/engine-harness.js';
import { HAVE_SCRIPT, startInPty } from '../support/pty.js';
import { CLI } from '../support/run-cli.js';

describe.skipIf(!HAVE_SCRIPT && !process.env.CI)('xagent paths on a terminal', () => {
  it('prints the summary and how to get every path, not megabytes', { timeout: 120_000 }, async () => {
    const pty = startInPty(
      `${process.execPath} ${CLI} paths`,
      { PATH: process.env.PATH ?? '', HOME: tempDir(), TERM: 'xterm-256color' },
      tempDir(),
    );
    expect(await pty.exited).toBe(0);
    const screen = pty.screen();
    expect(screen).toContain('## Coverage');
    expect(screen).toMatch(/\d+ paths, not listed on a terminal \([\d.]+ MB\): `xagent paths > paths\.md`/);
    expect(screen.length).toBeLessThan(200_000);
  });
});
