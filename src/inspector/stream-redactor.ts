import type { Sanitizer } from './redact.js';

/**
 * Redacts streamed text as one text, not delta by delta: a key split across deltas
 * (`sk-ant-ap` + `i03-...`) must not reach the page in pieces that join back into it. Each push
 * returns the text that is safe to show now and holds back any tail that could be the start of a
 * credential; `flush` releases the tail (redacted) when the text ends.
 * @example const r = new StreamRedactor(sanitize.text, [key]); r.push('key: sk-an'); // 'key: '
 */
export class StreamRedactor {
  private held = '';

  constructor(
    private readonly redact: Sanitizer['text'],
    secrets: ReadonlyArray<string | undefined> = [],
  ) {
    this.secrets = secrets.filter((s): s is string => typeof s === 'string' && s.length >= 8);
  }

  private readonly secrets: string[];

  /** Adds a delta; returns what can be shown now (possibly ''). */
  push(delta: string): string {
    const text = this.held + delta;
    const cut = holdFrom(text, this.secrets);
    this.held = text.slice(cut);
    return cut === 0 ? '' : this.redact(text.slice(0, cut));
  }

  /** The held-back tail, redacted; the redactor is empty afterwards. */
  flush(): string {
    const rest = this.held;
    this.held = '';
    return rest ? this.redact(rest) : '';
  }
}

/** The streamed channels: the answer's text and the model's thinking, each one text of its own. */
export type DeltaChannel = 'text' | 'thinking';

/**
 * One StreamRedactor per channel, so thinking deltas are redacted as one text exactly like the
 * answer's (a key split across thinking deltas reached the page before, issue 31 M6). A delta of
 * one channel releases the other's held tail first, so records keep their order.
 * @example const d = new DeltaRedactor(sanitize.text, [key]); d.push('thinking', 'sk-an'); // [{ channel: 'text', ... }?]
 */
export class DeltaRedactor {
  private readonly channels: Record<DeltaChannel, StreamRedactor>;

  constructor(redact: Sanitizer['text'], secrets: ReadonlyArray<string | undefined> = []) {
    this.channels = { text: new StreamRedactor(redact, secrets), thinking: new StreamRedactor(redact, secrets) };
  }

  /** Adds a delta; returns what can be shown now, in order (the other channel's tail first). */
  push(channel: DeltaChannel, delta: string): Array<{ channel: DeltaChannel; text: string }> {
    const other: DeltaChannel = channel === 'text' ? 'thinking' : 'text';
    const out = this.release(other);
    const text = this.channels[channel].push(delta);
    if (text) out.push({ channel, text });
    return out;
  }

  /** Every held tail, redacted: call before any record that is not a delta. */
  flush(): Array<{ channel: DeltaChannel; text: string }> {
    return [...this.release('text'), ...this.release('thinking')];
  }

  private release(channel: DeltaChannel): Array<{ channel: DeltaChannel; text: string }> {
    const text = this.channels[channel].flush();
    return text ? [{ channel, text }] : [];
  }
}

// A credential in progress at the end of the text: these run to the end and could go on.
const OPEN_ENDED = [
  /sk-ant-[A-Za-z0-9_-]*$/,
  /\b(?:Bearer|Basic)\s*[A-Za-z0-9._~+/=-]*$/i,
  /\b(?:x-api-key|authorization)["']?\s*[:=]?\s*["']?[^\s"',}]*$/i,
  /\b(?:ANTHROPIC_API_KEY|ANTHROPIC_AUTH_TOKEN)=?\S*$/,
];
// Words that start a credential; a text ending in a prefix of one is held too.
const STARTERS = ['sk-ant-', 'bearer', 'basic', 'x-api-key', 'authorization', 'anthropic_api_key', 'anthropic_auth_token'];
// Past this, the tail is let go (redacted as it stands) so the page is never starved.
const MAX_HELD = 4096;

/** The index from which the text could still be part of a credential (text.length when none). */
function holdFrom(text: string, secrets: readonly string[]): number {
  const windowStart = Math.max(0, text.length - MAX_HELD);
  const tail = text.slice(windowStart);
  let cut = tail.length;
  for (const pattern of OPEN_ENDED) {
    const match = pattern.exec(tail);
    if (match) cut = Math.min(cut, match.index);
  }
  const lower = tail.toLowerCase();
  const words = [...STARTERS.map((word) => ({ word, hay: lower })), ...secrets.map((word) => ({ word, hay: tail }))];
  for (const { word, hay } of words) {
    for (let n = Math.min(word.length, hay.length); n > 0; n--) {
      if (hay.endsWith(word.slice(0, n))) {
        cut = Math.min(cut, hay.length - n);
        break;
      }
    }
  }
  return windowStart + cut;
}
