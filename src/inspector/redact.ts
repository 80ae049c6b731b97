/**
 * Keeps credentials off the inspector page. Anything sent to the page goes through `redact`:
 * keys that name a credential lose their value, and strings lose anything that looks like an
 * Anthropic key, a bearer token, or one of the secret values given (e.g. $ANTHROPIC_API_KEY).
 */

export const REDACTED = '[redacted]';

const SECRET_KEY = /^(authorization|proxy-authorization|x-api-key|api[-_]?key|anthropic[-_]api[-_]key|auth[-_]?token|cookie|set-cookie|password|secret)$/i;
const PATTERNS: RegExp[] = [
  /sk-ant-[A-Za-z0-9_-]+/g,
  /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi,
  /\b(x-api-key|authorization)(["']?\s*[:=]\s*["']?)[^\s"',}]+/gi,
  /\b(ANTHROPIC_API_KEY|ANTHROPIC_AUTH_TOKEN)=\S+/g,
];

export interface Redactor {
  (value: unknown): unknown;
  text(value: string): string;
}

/**
 * Builds a redactor that also removes the exact `secrets` given (values shorter than 8 characters
 * are ignored: they would blank out ordinary words).
 * @example const redact = createRedactor([process.env.ANTHROPIC_API_KEY]); redact({ headers: { authorization: 'x' } })
 */
export function createRedactor(secrets: ReadonlyArray<string | undefined> = []): Redactor {
  const exact = secrets.filter((s): s is string => typeof s === 'string' && s.length >= 8);
  const text = (value: string): string => {
    let out = value;
    for (const secret of exact) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
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
  const walk = (value: unknown, depth: number): unknown => {
    if (typeof value === 'string') return text(value);
    if (value === null || typeof value !== 'object') return value;
    if (depth > 32) return REDACTED;
    if (Array.isArray(value)) return value.map((v) => walk(v, depth + 1));
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) out[key] = SECRET_KEY.test(key) ? REDACTED : walk(v, depth + 1);
    return out;
  };
  const redact = ((value: unknown) => walk(value, 0)) as Redactor;
  redact.text = text;
  return redact;
}
