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
