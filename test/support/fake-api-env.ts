import { afterEach, beforeEach, expect } from 'vitest';
import { tempDir } from './engine-harness.js';
import { startFakeAnthropic, type FakeAnthropic, type FakeResponse } from './fake-anthropic.js';

export interface FakeApiEnv {
  readonly fake: FakeAnthropic;
  readonly home: string;
  readonly workspace: string;
  /** Starts the fake with `script`; returns the environment that points the CLI at it. */
  start(script: FakeResponse[]): Promise<Record<string, string>>;
}

/**
 * For a test file that runs the CLI against the fake API: a fresh XAGENT_HOME and workspace per
 * test, and after each test the fake must have rejected nothing (every request was one the real
 * API accepts), then it is closed.
 */
export function useFakeApi(): FakeApiEnv {
  let fake: FakeAnthropic | undefined;
  let home = '';
  let workspace = '';
  beforeEach(() => {
    home = tempDir('xagent-home-');
    workspace = tempDir('xagent-ws-');
  });
  afterEach(async () => {
    expect(fake?.rejected ?? []).toEqual([]);
    await fake?.close();
    fake = undefined;
  });
  return {
    get fake() {
      if (!fake) throw new Error('start() the fake first');
      return fake;
    },
    get home() {
      return home;
    },
    get workspace() {
      return workspace;
    },
    async start(script) {
      await fake?.close();
      fake = await startFakeAnthropic(script);
      return { ANTHROPIC_API_KEY: 'sk-ant-test-key', ANTHROPIC_BASE_URL: fake.url, XAGENT_HOME: home };
    },
  };
}
