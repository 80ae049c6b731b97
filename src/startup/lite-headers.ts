/**
 * A `Headers` with the Fetch standard's behaviour for what a request and a response carry:
 * case-insensitive names, values trimmed, appended values joined with ", " (set-cookie kept
 * apart), iteration sorted by name, invalid names and values rejected with a TypeError.
 *
 * Why not the global: on Node 20 the first touch of `Headers` loads undici, ~20 ms of wall time
 * before the first model request, and undici's `Headers` costs ~0.1 ms of CPU per request in
 * validation and sorting (bench/README.md, issue 17). The bundle gives the Anthropic SDK's
 * modules this class under the name `Headers` (scripts/sdk-globals-plugin.ts), so the SDK
 * builds its request headers here and `nodeHttpFetch` hands them to node:http.
 *
 * `instanceof LiteHeaders` is also true for undici's `Headers`: the SDK checks
 * `headers instanceof Headers` to decide how to read headers a caller passed in, and a real
 * `Headers` object must not be mistaken for a plain record.
 * @example const h = new LiteHeaders({ Accept: 'text/plain' }); h.append('accept', 'text/html'); h.get('ACCEPT') // => 'text/plain, text/html'
 */
export class LiteHeaders {
  /** Lower-case name → combined value; set-cookie lives in `cookies`, one entry per header line. */
  private readonly byName = new Map<string, string>();
  private cookies: string[] = [];

  constructor(init?: HeadersInit | LiteHeaders | null) {
    if (init === undefined || init === null) return;
    if (isHeadersObject(init) || Array.isArray(init)) {
      for (const pair of init as Iterable<readonly string[]>) {
        if (pair.length !== 2) throw new TypeError('Headers: each header must be a [name, value] pair');
        this.append(pair[0], pair[1]);
      }
    } else {
      for (const name of Object.keys(init)) this.append(name, (init as Record<string, string>)[name]);
    }
  }

  /** True for LiteHeaders only (`instanceof` also answers true for undici's Headers). */
  static isLite(value: unknown): value is LiteHeaders {
    return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === LiteHeaders.prototype;
  }

  static [Symbol.hasInstance](value: unknown): boolean {
    return isHeadersObject(value);
  }

  get [Symbol.toStringTag](): string {
    return 'Headers';
  }

  append(name: string, value: string): void {
    const key = checkedName(name);
    const clean = checkedValue(value);
    if (key === 'set-cookie') {
      this.cookies.push(clean);
      return;
    }
    const existing = this.byName.get(key);
    this.byName.set(key, existing === undefined ? clean : `${existing}, ${clean}`);
  }

  set(name: string, value: string): void {
    const key = checkedName(name);
    const clean = checkedValue(value);
    if (key === 'set-cookie') this.cookies = [clean];
    else this.byName.set(key, clean);
  }

  delete(name: string): void {
    const key = checkedName(name);
    if (key === 'set-cookie') this.cookies = [];
    else this.byName.delete(key);
  }

  get(name: string): string | null {
    const key = checkedName(name);
    if (key === 'set-cookie') return this.cookies.length > 0 ? this.cookies.join(', ') : null;
    return this.byName.get(key) ?? null;
  }

  has(name: string): boolean {
    const key = checkedName(name);
    return key === 'set-cookie' ? this.cookies.length > 0 : this.byName.has(key);
  }

  /** The headers as node:http takes them (names lower-case, set-cookie as an array), without sorting. */
  toOutgoing(): Record<string, string | string[]> {
    const out: Record<string, string | string[]> = Object.fromEntries(this.byName);
    if (this.cookies.length > 0) out['set-cookie'] = [...this.cookies];
    return out;
  }

  getSetCookie(): string[] {
    return [...this.cookies];
  }

  forEach(callback: (value: string, name: string, parent: LiteHeaders) => void, thisArg?: unknown): void {
    for (const [name, value] of this.entries()) callback.call(thisArg, value, name, this);
  }

  *entries(): Generator<[string, string], undefined, undefined> {
    const names = [...this.byName.keys()];
    if (this.cookies.length > 0) names.push('set-cookie');
    for (const name of names.sort()) {
      if (name === 'set-cookie') for (const cookie of this.cookies) yield [name, cookie];
      else yield [name, this.byName.get(name)!];
    }
  }

  *keys(): Generator<string, undefined, undefined> {
    for (const [name] of this.entries()) yield name;
  }

  *values(): Generator<string, undefined, undefined> {
    for (const [, value] of this.entries()) yield value;
  }

  [Symbol.iterator](): Generator<[string, string], undefined, undefined> {
    return this.entries();
  }
}

/** A Headers object of either kind (ours or undici's), by its tag, without touching the `Headers` global. */
function isHeadersObject(value: unknown): value is Iterable<[string, string]> {
  return typeof value === 'object' && value !== null && Object.prototype.toString.call(value) === '[object Headers]';
}

// RFC 9110 token characters: what the Fetch standard (and node:http) accept in a header name.
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// A value may not hold NUL, CR or LF; leading and trailing spaces and tabs are dropped.
const FORBIDDEN_IN_VALUE = /[\0\r\n]/;

// The SDK sends the same dozen names every request: checked once, then known.
const checkedNames = new Map<string, string>();

function checkedName(name: string): string {
  const known = checkedNames.get(name);
  if (known !== undefined) return known;
  const text = String(name);
  if (!TOKEN.test(text)) throw new TypeError(`Headers: invalid header name ${JSON.stringify(text)}`);
  const lower = text.toLowerCase();
  if (checkedNames.size < 256) checkedNames.set(text, lower);
  return lower;
}

function checkedValue(value: string): string {
  let text = String(value);
  const last = text.length - 1;
  if (last >= 0 && (isBlank(text.charCodeAt(0)) || isBlank(text.charCodeAt(last)))) text = text.replace(/^[\t ]+|[\t ]+$/g, '');
  if (FORBIDDEN_IN_VALUE.test(text)) throw new TypeError('Headers: a header value may not contain NUL, CR or LF');
  return text;
}

const isBlank = (code: number) => code === 9 || code === 32;
