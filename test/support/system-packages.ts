import { accessSync, constants } from 'node:fs';
import path from 'node:path';

/**
 * The system packages some tests need beyond `npm install`. `.ci/run` installs them all; on a
 * machine without one, the tests that need it skip, and the run's report says which and why
 * (test/support/system-report.ts). In CI (`CI` or `XAGENT_CI` set, as .ci/run does) nothing skips: a missing package fails the
 * tests that need it, so CI cannot pass by skipping.
 */
export const SYSTEM_PACKAGES = {
  rg: { debian: 'ripgrep', tests: 'grep parity between ripgrep and the JavaScript engine' },
  bwrap: { debian: 'bubblewrap', tests: 'the sandbox (test/sandbox/, sandboxed hooks and commands)' },
  chromium: { debian: 'chromium', tests: 'the browser tests of the inspector (*.browser.test.ts)' },
  script: { debian: 'util-linux', tests: 'the terminal UI in a pseudo-terminal (test/tui/, terminal CLI tests)' },
} as const;

export type SystemCommand = keyof typeof SYSTEM_PACKAGES;

export const IN_CI = Boolean(process.env.CI || process.env.XAGENT_CI);

/** The command's absolute path on the PATH, or undefined. */
export function onPath(command: string, searchPath = process.env.PATH ?? ''): string | undefined {
  for (const dir of searchPath.split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, command);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {}
  }
  return undefined;
}

/** Whether the tests that need `command` run here: it is installed, or this is CI (where its absence fails). */
export function runsHere(command: SystemCommand): boolean {
  return IN_CI || onPath(command) !== undefined;
}

/** The commands whose tests skip on this machine, each with why. */
export function skippedHere(): Array<{ command: SystemCommand; why: string }> {
  if (IN_CI) return [];
  return (Object.keys(SYSTEM_PACKAGES) as SystemCommand[])
    .filter((command) => onPath(command) === undefined)
    .map((command) => {
      const { debian, tests } = SYSTEM_PACKAGES[command];
      return { command, why: `${tests}: no ${command} on the PATH (apt-get install ${debian})` };
    });
}
