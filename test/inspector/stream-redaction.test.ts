import { describe, expect, it } from 'vitest';
import { createHistory } from '../../src/inspector/history.js';
import { liveFeed } from '../../src/inspector/live-feed.js';
import { seededRandom } from '../support/random.js';

const KEY = 'sk-ant-api03-AbCdEf0123456789_xyz-QWERTY';
const CUSTOM = 'custom-secret-0123456789';

/** Streams `text` as deltas cut at `cuts`, then ends the turn; returns the page's text records joined. */
function streamed(text: string, cuts: number[]): { joined: string; records: string } {
  const history = createHistory({ secrets: [CUSTOM] });
  const feed = liveFeed(history, { sessionId: 's', limits: {}, secrets: [CUSTOM] });
  let from = 0;
  for (const cut of [...cuts, text.length]) {
    if (cut > from) feed({ type: 'text_delta', text: text.slice(from, cut) });
    from = Math.max(from, cut);
  }
  feed({ type: 'turn_end', reason: 'end_turn' });
  const texts = history.records.filter((r) => r.kind === 'text').map((r) => (r as { text: string }).text);
  return { joined: texts.join(''), records: JSON.stringify(history.records) };
}

describe('issue 18.4: streamed text is redacted as a whole before the inspector history', () => {
  const text = `Your key is ${KEY} and the token is Bearer abcdefghijklmnop; also ${CUSTOM}. Bye`;

  it('a key split at any point across two deltas cannot be joined back from the page records', () => {
    for (let cut = 1; cut < text.length; cut++) {
      const { joined, records } = streamed(text, [cut]);
      expect(joined, `cut at ${cut}`).not.toContain('AbCdEf0123456789');
      expect(joined, `cut at ${cut}`).not.toContain('abcdefghijklmnop');
      expect(joined, `cut at ${cut}`).not.toContain('0123456789.');
      expect(records).not.toContain('AbCdEf');
      expect(joined).toBe('Your key is sk-ant-[redacted] and the token is Bearer [redacted]; also [redacted]. Bye');
    }
  });

  it('holds under random splits into many small deltas (seeded)', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const r = seededRandom(seed);
      const cuts = Array.from({ length: 1 + Math.floor(r.next() * 30) }, () => Math.floor(r.next() * text.length)).sort((a, b) => a - b);
      const { joined } = streamed(text, cuts);
      expect(joined, `seed ${seed}`).toBe('Your key is sk-ant-[redacted] and the token is Bearer [redacted]; also [redacted]. Bye');
    }
  });

  it('lets ordinary text through without waiting for the end of the turn', () => {
    const history = createHistory();
    const feed = liveFeed(history, { sessionId: 's', limits: {} });
    feed({ type: 'text_delta', text: 'Hello there, ' });
    expect(
      history.records
        .filter((r) => r.kind === 'text')
        .map((r) => (r as { text: string }).text)
        .join(''),
    ).toBe('Hello there, ');
  });
});
