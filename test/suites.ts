/**
 * Which test files run where. `npm test` is the fast suite (vitest.config.ts); `npm run test:slow`
 * runs the rest (vitest.slow.config.ts); `.ci/run` runs both, so every test runs in CI.
 *
 * A file is slow when its name says so (`*.slow.test.ts`, `*.browser.test.ts`) or it is listed
 * below: real browsers, long pseudo-terminal journeys, Restate servers and clusters, the packed
 * tarball, the fuzz at full size. Measured per file with `npx vitest run --reporter=json`.
 */
export const SLOW_NAMES = ['test/**/*.slow.test.ts', 'test/**/*.browser.test.ts'];

export const SLOW_FILES: string[] = [
  // The fuzz at full size (the fast suite runs it smaller: FUZZ_SIZE below).
  'test/permissions/bash-fuzz.test.ts',
  'test/permissions/bash-reader-fuzz.test.ts',
  // kill -9 in the middle of a run, then resume.
  'test/rewind/kill-nine.test.ts',
  'test/sandbox/kill-nine.test.ts',
  // Restate servers.
  'test/restate/kill-nine.test.ts',
  'test/restate/commands.test.ts',
  'test/restate/approvals.test.ts',
  // npm pack and a tarball install.
  'test/cli/packed-tarball.test.ts',
  // Long journeys through the built CLI: real configurations, real MCP servers, many processes.
  'test/compat/real-configs.test.ts',
  'test/compat/claude-cli-flags.test.ts',
  'test/cli/issue-31-bash-cli.test.ts',
  'test/cli/paths-command.test.ts',
  'test/cli/paths-terminal.test.ts',
  'test/cli/trust-cli.test.ts',
  'test/mcp/everything-cli.test.ts',
  'test/mcp/failures-cli.test.ts',
  'test/rewind/rewind-cli.test.ts',
  'test/sandbox/sandbox-cli.test.ts',
  'test/sessions/cli-continue.test.ts',
  'test/sessions/cli-sessions.test.ts',
  // Pseudo-terminal journeys through the interactive UI.
  'test/tui/daily-driver.test.ts',
  'test/tui/tool-output.test.ts',
  'test/tui/session-modes.test.ts',
  'test/tui/interactive-ui.test.ts',
  'test/tui/input-keys.test.ts',
  'test/tui/startup.test.ts',
  'test/rewind/tui-rewind.test.ts',
];

export const SLOW = [...SLOW_NAMES, ...SLOW_FILES];

/** The slow suite sets XAGENT_SUITE=slow: the fuzz runs at full size there and smaller in `npm test`. */
export const FUZZ_SIZE = { fast: 1500, slow: 6000 } as const;
