import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Says at the end which tests skipped for want of a system package (ripgrep, bubblewrap, Chromium).
    globalSetup: ['test/support/system-report.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
