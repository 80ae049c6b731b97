/**
 * Which test files run where. `npm test` is the fast suite (vitest.config.ts); `npm run test:slow`
 * runs the rest (vitest.slow.config.ts); `.ci/run` runs both, so every test runs in CI.
 *
 * A file is slow when its name says so (`*.slow.test.ts`, `*.browser.test.ts`) or it is listed
 * below: real browsers, long pseudo-terminal journeys, Restate servers and clusters, the packed
 * tarball, the fuzz at full size. Measured per file with `npx vitest run --reporter=json`.
 */
export const SLOW_NAMES = ['test/**/*.slow.test.ts', 'test/**/*.browser.test.ts'];

export const SLOW_FILES: string[] = [];

export const SLOW = [...SLOW_NAMES, ...SLOW_FILES];
