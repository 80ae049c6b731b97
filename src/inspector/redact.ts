/**
 * Keeps credentials off the inspector page. Anything sent to the page goes through `redact`:
 * keys that name a credential lose their value, and strings lose anything that looks like an
 * Anthropic key, a bearer token, or one of the secret values given (e.g. $ANTHROPIC_API_KEY).
 */

export const REDACTED = '[redacted]';

const SECRET_KEY =
  /^(authorization|proxy-authorization|x-api-key|api[-_]?key|anthropic[-_]api[-_]key|auth[-_]?token|cookie|set-cookie|password|secret)$/i;
const PATTERNS: RegExp[] = [
  /sk-ant-[A-Za-z0-9_-]+/g,
  /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi,
  /\b(x-api-key|authorization)(["']?\s*[:=]\s*["']?)[^\s"',}]+/gi,
  /\b(ANTHROPIC_API_KEY|ANTHROPIC_AUTH_TOKEN)=\S+/g,
];

/** Cheap first look: a string none of the patterns could match is returned untouched. */
const MAY_MATCH = /sk-ant-|bearer|basic|x-api-key|authorization|anthropic_(?:api_key|auth_token)/i;

/** A key's verdict, as bits: its value is blanked (SECRET_KEY names it); the key itself is redacted. */
const SECRET_NAMED = 1;
const RENAMED = 2;
const MAX_KEY_VERDICTS = 4096;
const MAX_SHARED_KEYS = 256;

export interface SanitizeOptions {
  /** Exact secret values to remove (shorter than 8 characters are ignored: they would blank out words). */
  secrets?: ReadonlyArray<string | undefined>;
  /** Longer strings are cut to this many characters, with a note of what was left out. */
  maxText?: number;
}

export interface Sanitizer {
  (value: unknown): unknown;
  text(value: string): string;
}

/**
 * Builds the one pass everything bound for the page goes through: credentials out (keys that name
 * a credential lose their value; strings lose anything that looks like an Anthropic key, a bearer
 * token or one of the given secrets), long strings cut. Copy-on-write: a value with nothing to
 * change is returned as it is, so the common record costs a walk and no allocation.
 * @example const sanitize = createSanitizer({ secrets: [process.env.ANTHROPIC_API_KEY], maxText: 20_000 });
 */
export function createSanitizer(options: SanitizeOptions = {}): Sanitizer {
  const exact = (options.secrets ?? []).filter((s): s is string => typeof s === 'string' && s.length >= 8);
  const maxText = options.maxText ?? Number.POSITIVE_INFINITY;
  const redactText = (value: string): string => {
    let out = value;
    for (const secret of exact) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    if (!MAY_MATCH.test(out)) return out;
    for (const pattern of PATTERNS) {
      out = out.replace(pattern, (_match, name: string | undefined, sep: string | undefined) => {
        if (pattern === PATTERNS[0]) return `sk-ant-${REDACTED}`;
        if (pattern === PATTERNS[2]) return `${name}${sep}${REDACTED}`;
        if (pattern === PATTERNS[3]) return `${name}=${REDACTED}`;
        return `${name} ${REDACTED}`;
      });
    }
    return out;
  };
  const text = (value: string): string => {
    // Redact before cutting, so a cut cannot split a key into a part the patterns miss.
    const clean = redactText(value);
    return clean.length <= maxText ? clean : `${clean.slice(0, maxText)}\n… (${clean.length - maxText} more characters not kept)`;
  };
  // Records repeat a few dozen keys (`ts`, `via`, `usage`...): each key's verdict is worked out
  // once, not with two regular expressions per key per record. Bounded: tool inputs bring any keys.
  const verdicts = new Map<string, number>();
  const verdictOf = (key: string): number => {
    let verdict = verdicts.get(key);
    if (verdict === undefined) {
      // A key is text too: `{"sk-ant-...": 1}` (tool input, an MCP result's JSON) must not show it.
      verdict = (SECRET_KEY.test(key) ? SECRET_NAMED : 0) | (redactText(key) !== key ? RENAMED : 0);
      if (verdicts.size < MAX_KEY_VERDICTS) verdicts.set(key, verdict);
    }
    return verdict;
  };
  // Consecutive records share nested values (a round's state lines carry the same `usage`, `call`
  // and `decision` objects): the last object met under each key, and what it became, is kept, so a
  // value shared by the next record is walked once. Sound because a recorded value never changes
  // (the evidence log's contract), as copy-on-write already assumes. Bounded like the verdicts.
  // The depth is part of the match: what a walk cuts off depends on where it starts.
  const lastUnder = new Map<string, { seen: object; depth: number; clean: unknown }>();
  const shared = (key: string, value: object, depth: number): unknown => {
    const last = lastUnder.get(key);
    if (last?.seen === value && last.depth === depth) return last.clean;
    const clean = walk(value, depth + 1);
    if (last) {
      last.seen = value;
      last.depth = depth;
      last.clean = clean;
    } else if (lastUnder.size < MAX_SHARED_KEYS) lastUnder.set(key, { seen: value, depth, clean });
    return clean;
  };
  const walk = (value: unknown, depth: number): unknown => {
    if (typeof value === 'string') return text(value);
    if (value === null || typeof value !== 'object') return value;
    if (depth > 32) return REDACTED;
    if (Array.isArray(value)) {
      let copy: unknown[] | undefined;
      for (let i = 0; i < value.length; i++) {
        const v: unknown = value[i];
        const clean = walk(v, depth + 1);
        if (clean !== v) (copy ??= [...value])[i] = clean;
      }
      return copy ?? value;
    }
    let copy: Record<string, unknown> | undefined;
    const object = value as Record<string, unknown>;
    let renamed = false;
    for (const key in object) {
      const v = object[key];
      const verdict = verdictOf(key);
      const clean = verdict & SECRET_NAMED ? REDACTED : typeof v === 'object' && v !== null ? shared(key, v, depth) : walk(v, depth + 1);
      if (clean !== v) (copy ??= { ...object })[key] = clean;
      if (verdict & RENAMED) renamed = true;
    }
    if (renamed) return renameKeys(copy ?? object, redactText);
    return copy ?? value;
  };
  const sanitize = ((value: unknown) => walk(value, 0)) as Sanitizer;
  sanitize.text = text;
  return sanitize;
}

/** The object with its keys redacted, in order; two keys that redact alike are numbered so neither value is lost. */
function renameKeys(object: Record<string, unknown>, redactText: (text: string) => string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key in object) {
    let clean = redactText(key);
    for (let n = 2; Object.hasOwn(out, clean); n++) clean = `${redactText(key)} (${n})`;
    out[clean] = object[key];
  }
  return out;
}
