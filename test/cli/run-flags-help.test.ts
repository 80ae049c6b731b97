import { describe, expect, it } from 'vitest';
import { RUN_FLAGS } from '../../src/run/add-run-flags.js';
import { runCli } from '../support/run-cli.js';

/** The options of a --help page: flag term → its description, wrapped lines joined. */
function options(help: string): Map<string, string> {
  const entries = new Map<string, string>();
  let last: string | null = null;
  for (const line of help.slice(help.indexOf('Options:')).split('\n').slice(1)) {
    const entry = /^ {2}(-\S*(?:, --\S+)?(?: [<[][^>\]]+[>\]])?) {2,}(.*)$/.exec(line);
    if (entry) {
      last = entry[1]!;
      entries.set(last, entry[2]!);
    } else if (last && /^ {10,}\S/.test(line)) entries.set(last, `${entries.get(last)} ${line.trim()}`);
    else if (!line.trim()) break;
  }
  return entries;
}

describe('the run flags, declared once', () => {
  it('-p, acp and submit list the same run flags with the same texts', async () => {
    const [print, acp, submit] = await Promise.all([runCli(['-p', '--help']), runCli(['acp', '--help']), runCli(['submit', '--help'])]);
    const pages = [print, acp, submit].map((run) => options(run.stdout));
    const shared = RUN_FLAGS.filter((flag) => flag.for === undefined).map((flag) => flag.flags);
    expect(shared.length).toBeGreaterThan(15);
    for (const flag of shared) {
      const texts = pages.map((page) => page.get(flag));
      expect(texts[0], flag).toBeDefined();
      expect(texts, flag).toEqual([texts[0], texts[0], texts[0]]);
    }
    // The flags only a task with a terminal or a session takes stay off the others' pages.
    expect(pages[0]!.has('-r, --resume [session-id]')).toBe(true);
    expect(pages[2]!.has('-r, --resume [session-id]')).toBe(false);
    expect(pages[1]!.has('--output-format <format>')).toBe(false);
  });
});
