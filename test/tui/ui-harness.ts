import { afterEach, expect } from 'vitest';
import { startFakeAnthropic, type FakeAnthropic, type FakeResponse } from '../support/fake-anthropic.js';
import { tempDir } from '../support/engine-harness.js';
import { startInPty, type PtySession } from '../support/pty.js';
import { CLI } from '../support/run-cli.js';

export interface Ui {
  pty: PtySession;
  workspace: string;
  home: string;
  fake: FakeAnthropic;
  /** Where the screen stood when the UI was ready. */
  at: number;
  /** Ends the terminal and the fake API (closeUisAfterEach calls it). */
  close(): Promise<void>;
}

/** The terminal UIs started by the running test, for closeUisAfterEach. */
const open = new Set<Ui>();

/**
 * A test file's afterEach, in one place: ends every terminal UI its test started (and its fake API)
 * and fails the test if the fake rejected a request, unless `allowRejected` (a file whose tests
 * check the rejections themselves).
 */
export function closeUisAfterEach(options: { allowRejected?: boolean } = {}): void {
  afterEach(async () => {
    const uis = [...open];
    open.clear();
    const rejected = uis.flatMap((ui) => ui.fake.rejected);
    await Promise.all(uis.map((ui) => ui.close()));
    if (!options.allowRejected) expect(rejected).toEqual([]);
  });
}

/**
 * The terminal UI on a real pseudo-terminal of 100 columns (or `cols`), against the fake API, with
 * `flags`, ready when `ready` shows (the UI's `/help` hint unless said otherwise).
 * waitFor fails after 20 s (or `waitMs`) with the end of the screen, so a missing text says what was shown.
 */
export async function startUi(
  script: FakeResponse[],
  options: { flags?: string; waitMs?: number; workspace?: string; home?: string; cols?: number; ready?: string | RegExp } = {},
): Promise<Ui> {
  const fake = await startFakeAnthropic(script);
  const workspace = options.workspace ?? tempDir('xagent-ws-');
  const home = options.home ?? tempDir('xagent-home-');
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: tempDir(),
    TERM: 'xterm-256color',
    XAGENT_HOME: home,
    ANTHROPIC_API_KEY: 'sk-ant-test',
    ANTHROPIC_BASE_URL: fake.url,
  };
  const session = startInPty(
    `stty cols ${options.cols ?? 100} rows 50; exec ${process.execPath} ${CLI} ${options.flags ?? ''}`,
    env,
    workspace,
  );
  const waitMs = options.waitMs ?? 20_000;
  const waitFor = (pattern: string | RegExp, from = 0) =>
    Promise.race([
      session.waitFor(pattern, from),
      new Promise<number>((_, reject) =>
        setTimeout(
          () => reject(new Error(`${String(pattern)} did not appear; the screen ends:\n${session.screen().slice(-3000)}`)),
          waitMs,
        ).unref(),
      ),
    ]);
  const close = async () => {
    // Esc closes a dialog a failed test may have left open; Ctrl-D leaves; a kill if that is not enough.
    session.type('\x1b');
    session.type('\x04');
    await Promise.race([session.exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
    session.kill();
    await fake.close();
  };
  const ui: Ui = { pty: { ...session, waitFor }, workspace, home, fake, at: 0, close };
  open.add(ui);
  ui.at = await waitFor(options.ready ?? '/help', 0);
  return ui;
}
