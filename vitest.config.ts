import { defineConfig } from 'vitest/config';
import { SLOW } from './test/suites.js';

// The fast suite (`npm test`); test/suites.ts says what runs in `npm run test:slow` instead.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['**/node_modules/**', ...SLOW],
    // Says at the end which tests skipped for want of a system package (ripgrep, bubblewrap, Chromium).
    globalSetup: ['test/support/system-report.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
