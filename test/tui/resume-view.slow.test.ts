import { readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Message } from '../../machines/types.js';
import { tempDir } from '../support/engine-harness.js';
import { HAVE_SCRIPT } from '../support/pty.js';
import { recordSession } from '../support/record-session.js';
import { closeUisAfterEach, startUi, type Ui } from './ui-harness.js';

/**
 * Issue 39: `-c` showed the last exchange as raw markdown, and `-r` without an id was an error.
 * Now `-c` renders the last exchanges as a live answer is rendered, and `-r` opens a picker.
 */

closeUisAfterEach();

const sessionsIn = (home: string) => readdirSync(path.join(home, 'sessions')).sort();
const sent = (u: Ui, request: number) => (u.fake.requests[request]!.body as { messages: Message[] }).messages;

describe.skipIf(!HAVE_SCRIPT && !process.env.CI)('resuming in the terminal UI', () => {
  it('-c shows the last 3 exchanges, answers rendered as markdown and edits with their diff; earlier ones are counted', {
    timeout: 90_000,
  }, async () => {
    const where = { workspace: tempDir('xagent-ws-'), home: tempDir('xagent-home-') };
    writeFileSync(path.join(where.workspace, 'f.ts'), 'a\nb\nc\nd\n');
    await recordSession(where, [
      { prompt: 'the oldest question', script: [{ text: 'The oldest answer.' }] },
      { prompt: 'the second question', script: [{ text: 'The second answer.' }] },
      {
        prompt: 'make c loud',
        script: [
          { content: [{ type: 'tool_use', name: 'edit_file', input: { path: 'f.ts', old_string: 'c\n', new_string: 'C\n' } }] },
          { text: 'Done: `c` is now **loud**.' },
        ],
      },
      { prompt: 'the last question', script: [{ text: '# Final heading\n\nSome **bold** words and a list:\n\n- one\n- two' }] },
    ]);

    const ui = await startUi([{ text: 'Carried on.' }], { ...where, flags: '-c' });
    const at = await ui.pty.waitFor('Some bold words', ui.at);
    const shown = ui.pty.screen().slice(ui.at, at + 200);
    expect(shown).toContain('… 1 earlier message of yours not shown');
    expect(shown).not.toContain('The oldest answer.');
    for (const text of [
      'the second question',
      'The second answer.',
      'make c loud',
      '⏺ edit_file f.ts',
      'the last question',
      'Final heading',
    ])
      expect(shown).toContain(text);
    expect(shown).toMatch(/⎿ Updated f\.ts with 1 addition and 1 removal\n\s+3 - c\n\s+3 \+ C/);
    expect(shown).toContain('Done: c is now loud.');
    // Rendered, not raw: no emphasis markers, no heading hashes, list items bulleted.
    expect(shown).not.toMatch(/\*\*|# Final|`c`/);
    expect(shown).toMatch(/[*•] one/);

    ui.pty.type('go on\r');
    await ui.pty.waitFor('Carried on.', at);
    // The whole conversation went on: 10 recorded messages and the new prompt.
    expect(sent(ui, 0)).toHaveLength(11);
  });

  it('-r alone lists this folder’s sessions newest first with their message counts; ↓ and Enter resume the older one', {
    timeout: 90_000,
  }, async () => {
    const where = { workspace: tempDir('xagent-ws-'), home: tempDir('xagent-home-') };
    const older = await recordSession(where, [{ prompt: 'the older session', script: [{ text: 'Older answer.' }] }]);
    await recordSession(where, [
      { prompt: 'the newer session', script: [{ text: 'Newer answer.' }] },
      { prompt: 'its second task', script: [{ text: 'Second answer.' }] },
    ]);
    await recordSession({ ...where, workspace: tempDir('xagent-elsewhere-') }, [
      { prompt: 'another folder', script: [{ text: 'Elsewhere.' }] },
    ]);

    const ui = await startUi([{ text: 'Back in the older one.' }], {
      ...where,
      flags: '-r',
      ready: '↑/↓ chooses · Enter resumes · Esc quits',
    });
    const picker = ui.pty.screen();
    expect(picker).toMatch(/❯ just now\s+4 messages\s+the newer session/);
    expect(picker).toMatch(/ {2}just now\s+2 messages\s+the older session/);
    expect(picker.indexOf('the newer session')).toBeLessThan(picker.indexOf('the older session'));
    expect(picker).not.toContain('another folder');

    ui.pty.type('\x1b[B');
    await ui.pty.waitFor(/❯ just now\s+2 messages\s+the older session/, ui.at);
    ui.pty.type('\r');
    let at = await ui.pty.waitFor(`Resumed ${older} · 2 messages`, ui.at);
    at = await ui.pty.waitFor('/help', at);
    await ui.pty.waitFor('Older answer.', at);
    ui.pty.type('and now\r');
    await ui.pty.waitFor('Back in the older one.', at);
    expect(sent(ui, 0).map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(JSON.stringify(sent(ui, 0))).toContain('the older session');
  });

  it('Esc in the picker quits without starting anything: exit 0, no session opened', { timeout: 90_000 }, async () => {
    const where = { workspace: tempDir('xagent-ws-'), home: tempDir('xagent-home-') };
    await recordSession(where, [{ prompt: 'the only session', script: [{ text: 'Answer.' }] }]);
    const before = sessionsIn(where.home);

    const ui = await startUi([], { ...where, flags: '-r', ready: 'the only session' });
    ui.pty.type('\x1b');
    expect(await ui.pty.exited).toBe(0);
    expect(ui.pty.screen()).not.toContain('Type a task');
    expect(sessionsIn(where.home)).toEqual(before);
    expect(ui.fake.requests).toEqual([]);
  });

  it('-r in a folder without sessions says so and exits 0 without starting', { timeout: 60_000 }, async () => {
    const ui = await startUi([], { flags: '-r', ready: 'No recorded sessions of' });
    expect(await ui.pty.exited).toBe(0);
    expect(ui.pty.screen()).toContain('to resume (xagent without -r starts one).');
    expect(ui.pty.screen()).not.toContain('Type a task');
    expect(ui.fake.requests).toEqual([]);
  });

  it('/resume without an id offers the other sessions of this folder in the choice dialog; a number resumes one', {
    timeout: 90_000,
  }, async () => {
    const where = { workspace: tempDir('xagent-ws-'), home: tempDir('xagent-home-') };
    const recorded = await recordSession(where, [{ prompt: 'the recorded one', script: [{ text: 'Recorded **answer**.' }] }]);
    const ui = await startUi([{ text: 'Picked up.' }], where);
    ui.pty.type('/resume\r');
    let at = await ui.pty.waitFor('Resume which session of this workspace?', ui.at);
    at = await ui.pty.waitFor(/1\. just now · 2 messages · the recorded one/, at);
    ui.pty.type('1');
    at = await ui.pty.waitFor(`Resumed ${recorded} · 2 messages`, at);
    at = await ui.pty.waitFor('Recorded answer.', at);
    ui.pty.type('go on\r');
    await ui.pty.waitFor('Picked up.', at);
    expect(JSON.stringify(sent(ui, 0))).toContain('the recorded one');
  });
});
