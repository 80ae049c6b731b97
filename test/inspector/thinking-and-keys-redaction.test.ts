import { describe, expect, it } from 'vitest';
import { createHistory } from '../../src/inspector/history.js';
import { liveFeed } from '../../src/inspector/live-feed.js';
import { createSanitizer } from '../../src/inspector/redact.js';

/** Issue 31 M6 and L7: thinking deltas and object keys reach the inspector redacted, like text. */

const KEY = 'sk-ant-api03-AbCdEf0123456789_xyz-QWERTY';

describe('thinking deltas are redacted as one text (issue 31, M6)', () => {
  it('a key split at any point across two thinking deltas cannot be joined back from the page records', () => {
    const text = `I should not print ${KEY} here.`;
    for (let cut = 1; cut < text.length; cut++) {
      const history = createHistory();
      const feed = liveFeed(history, { sessionId: 's', limits: {} });
      feed({ type: 'thinking_delta', thinking: text.slice(0, cut) });
      feed({ type: 'thinking_delta', thinking: text.slice(cut) });
      feed({ type: 'turn_end', reason: 'end_turn' });
      const thinking = history.records.filter((r) => r.kind === 'thinking').map((r) => (r as { text: string }).text);
      expect(thinking.join(''), `cut at ${cut}`).toBe('I should not print sk-ant-[redacted] here.');
      expect(JSON.stringify(history.records)).not.toContain('AbCdEf');
    }
  });

  it('keeps the order of text and thinking when they alternate', () => {
    const history = createHistory();
    const feed = liveFeed(history, { sessionId: 's', limits: {} });
    feed({ type: 'thinking_delta', thinking: 'plan: use sk-an' });
    feed({ type: 'text_delta', text: 'Done.' });
    feed({ type: 'turn_end', reason: 'end_turn' });
    const parts: string[] = [];
    let last = '';
    for (const r of history.records) {
      if (r.kind !== 'text' && r.kind !== 'thinking') continue;
      const text = (r as { text: string }).text;
      if (r.kind === last) parts[parts.length - 1] += text;
      else parts.push(`${r.kind}:${text}`);
      last = r.kind;
    }
    expect(parts).toEqual(['thinking:plan: use sk-an', 'text:Done.']);
  });
});

describe('object keys are redacted like text (issue 31, L7)', () => {
  it('a key that is a credential is replaced, its value kept, and two such keys both survive', () => {
    const sanitize = createSanitizer({ secrets: ['my-custom-secret-value'] });
    const input = { [KEY]: 'first', 'my-custom-secret-value': 'second', ordinary: 'third' };
    const clean = sanitize(input) as Record<string, unknown>;
    expect(JSON.stringify(clean)).not.toContain('AbCdEf');
    expect(JSON.stringify(clean)).not.toContain('my-custom-secret-value');
    expect(Object.values(clean)).toEqual(['first', 'second', 'third']);
    expect(clean.ordinary).toBe('third');
  });

  it('leaves an object with ordinary keys as it is (no copy)', () => {
    const value = { a: { b: 'c' } };
    expect(createSanitizer()(value)).toBe(value);
  });
});
