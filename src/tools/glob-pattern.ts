import { XagentError } from '../errors/xagent-error.js';

/**
 * Compiles a glob into an anchored RegExp over `/`-separated relative paths.
 * Supported: `**` (any number of folders, including none, when it is a whole segment),
 * `*` and `?` (never cross `/`), `{a,b}` (nestable), `[abc]`, `[a-z]`, `[!x]` / `[^x]`, `\` escapes.
 * Like ripgrep's globs, `*` also matches names starting with a dot.
 * Throws `GlobSyntaxError` for an unclosed `{` or `[`.
 * @example globToRegExp('src/**\/*.{ts,tsx}').test('src/a/b.ts') // true
 */
export function globToRegExp(glob: string): RegExp {
  const parser = new GlobParser(glob);
  const body = parser.parse(false);
  return new RegExp(`^${body}$`);
}

export class GlobSyntaxError extends XagentError {
  override readonly name = 'GlobSyntaxError';
  override readonly fault = 'tool';
}

/** Whether a glob names a folder as a whole segment or brace alternative, e.g. `node_modules/**`. */
export function globNamesSegment(glob: string, segment: string): boolean {
  return glob.split(/[/{},]/).includes(segment);
}

class GlobParser {
  private i = 0;

  constructor(private readonly glob: string) {}

  /** Parses until the end, or until `,` / `}` when inside braces. */
  parse(inBraces: boolean): string {
    let out = '';
    const g = this.glob;
    while (this.i < g.length) {
      const c = g[this.i];
      if (inBraces && (c === ',' || c === '}')) return out;
      if (c === '*') {
        out += this.star();
      } else if (c === '?') {
        out += '[^/]';
        this.i++;
      } else if (c === '[') {
        out += this.charClass();
      } else if (c === '{') {
        out += this.braces();
      } else if (c === '\\' && this.i + 1 < g.length) {
        out += escapeRegExp(g[this.i + 1]);
        this.i += 2;
      } else {
        out += escapeRegExp(c);
        this.i++;
      }
    }
    if (inBraces) throw new GlobSyntaxError(`unclosed "{" in glob "${g}"`);
    return out;
  }

  private star(): string {
    const g = this.glob;
    const start = this.i;
    while (g[this.i] === '*') this.i++;
    const double = this.i - start >= 2;
    const atSegmentStart = start === 0 || g[start - 1] === '/';
    const atSegmentEnd = this.i === g.length || g[this.i] === '/';
    if (!double || !atSegmentStart || !atSegmentEnd) return '[^/]*';
    if (this.i === g.length) {
      // `dir/**` matches everything below dir; a lone `**` matches everything.
      return '.*';
    }
    // `**/` matches zero or more whole folders.
    this.i++;
    return '(?:[^/]*/)*';
  }

  private charClass(): string {
    const g = this.glob;
    let j = this.i + 1;
    let negate = false;
    if (g[j] === '!' || g[j] === '^') {
      negate = true;
      j++;
    }
    let body = '';
    // A `]` right after the opening bracket is a literal member.
    if (g[j] === ']') {
      body += '\\]';
      j++;
    }
    while (j < g.length && g[j] !== ']') {
      const c = g[j];
      if (c === '\\' && j + 1 < g.length) {
        body += escapeClassChar(g[j + 1]);
        j += 2;
      } else if (c === '-') {
        body += '-';
        j++;
      } else {
        body += escapeClassChar(c);
        j++;
      }
    }
    if (j >= g.length) throw new GlobSyntaxError(`unclosed "[" in glob "${g}"`);
    this.i = j + 1;
    return negate ? `(?!/)[^${body}]` : `(?!/)[${body}]`;
  }

  private braces(): string {
    this.i++;
    const alternatives: string[] = [];
    for (;;) {
      alternatives.push(this.parse(true));
      const c = this.glob[this.i];
      this.i++;
      if (c === '}') break;
    }
    return `(?:${alternatives.join('|')})`;
  }
}

function escapeRegExp(c: string): string {
  return /[.*+?^${}()|[\]\\/]/.test(c) ? `\\${c}` : c;
}

function escapeClassChar(c: string): string {
  return /[\]\\^-]/.test(c) ? `\\${c}` : c;
}
