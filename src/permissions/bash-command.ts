/**
 * Splits a shell command into the simple commands it would run, so that a rule can be checked
 * against every one of them: `npm test && rm -rf ~` is two commands, and `echo $(rm x)` runs
 * `rm x` too. This is a cautious reader, not a shell: whatever it cannot read with certainty
 * (unbalanced quotes, heredocs, `case`, arithmetic with substitutions...) makes the result
 * `unsure`, and an unsure command is never allowed by a pattern rule.
 */

export interface SimpleCommand {
  /** The words as written (quotes kept), one space apart, leading keywords (`if`, `do`, `{`...) dropped. */
  text: string;
  /** The same words with quotes and escapes removed. */
  plain: string;
  /** The words with quotes and escapes removed, one by one. */
  words: string[];
  /** An output redirection writes to a file (anything but `/dev/null` or a file descriptor). */
  writesFile: boolean;
}

export interface ParsedCommand {
  /** Every simple command, substitutions included (inner ones come before the command holding them). */
  parts: SimpleCommand[];
  /** Why the reader is not sure it saw every command; absent when it is. */
  unsure?: string;
}

/**
 * @example splitCommand('npm test && echo "$(whoami)"').parts.map((p) => p.text)
 * // ['npm test', 'whoami', 'echo "$(whoami)"']
 */
export function splitCommand(command: string): ParsedCommand {
  const reader = new CommandReader(command, 0);
  try {
    reader.readList(null);
  } catch (error) {
    if (error instanceof Unsure) return { parts: reader.parts, unsure: error.message };
    throw error;
  }
  return { parts: reader.parts };
}

class Unsure extends Error {}

interface Word {
  raw: string;
  plain: string;
}

const KEYWORDS = new Set(['!', '{', '}', 'if', 'then', 'else', 'elif', 'fi', 'do', 'done', 'while', 'until', 'time']);
const UNREADABLE_KEYWORDS = new Set(['case', 'esac', 'function', 'select', 'coproc', '[[', ']]']);
const SEPARATORS = new Set([';', '&', '|', '\n']);
const BLANKS = new Set([' ', '\t']);
const OUTPUT_OPS = new Set(['>', '>>', '>|', '&>', '&>>', '<>']);
// An optional fd (`2`, `{fd}`) then a redirection operator; `<(` and `>(` are process substitutions.
const REDIRECTION = /(\d+|\{[A-Za-z_][A-Za-z0-9_]*\})?(&>>|&>|>>|>\||>&|<<<|<<-|<<|<>|<&|>(?!\()|<(?!\())/y;
const MAX_DEPTH = 32;

class CommandReader {
  readonly parts: SimpleCommand[] = [];
  private pos = 0;
  private nesting = 0;

  constructor(
    private readonly src: string,
    private readonly depth: number,
  ) {
    if (depth > MAX_DEPTH) throw new Unsure('backticks nested too deeply');
  }

  /** Commands and separators until `)` (left for the caller) or the end. */
  readList(end: ')' | null): void {
    if (end && ++this.nesting > MAX_DEPTH) throw new Unsure('groups or substitutions nested too deeply');
    for (;;) {
      this.skipBlanks();
      if (this.pos >= this.src.length) {
        if (end) throw new Unsure('unbalanced parenthesis');
        return;
      }
      const c = this.src[this.pos];
      if (c === ')') {
        if (end) {
          this.nesting--;
          return;
        }
        throw new Unsure('unbalanced ")"');
      }
      if (SEPARATORS.has(c)) {
        if (c === '&' && this.src[this.pos + 1] === '>') this.readCommand();
        else if (this.src.startsWith(';;', this.pos) || this.src.startsWith(';&', this.pos)) throw new Unsure('case clause');
        else this.pos += this.src.startsWith('&&', this.pos) || this.src.startsWith('||', this.pos) || this.src.startsWith('|&', this.pos) ? 2 : 1;
        continue;
      }
      this.readCommand();
    }
  }

  private readCommand(): void {
    if (this.src[this.pos] !== '(') {
      this.readSimple(false);
      return;
    }
    if (this.src[this.pos + 1] === '(') throw new Unsure('arithmetic command');
    this.pos++;
    this.readList(')');
    this.pos++;
    this.readSimple(true);
  }

  /** One simple command; after a `( ... )` group only redirections may follow, and not to files. */
  private readSimple(afterGroup: boolean): void {
    const words: Word[] = [];
    let writesFile = false;
    for (;;) {
      this.skipBlanks();
      if (this.pos >= this.src.length) break;
      const c = this.src[this.pos];
      if (c === ')' || (SEPARATORS.has(c) && !(c === '&' && this.src[this.pos + 1] === '>'))) break;
      if (c === '(') throw new Unsure('unexpected "(" (function definition or array)');
      if (c === '#') {
        while (this.pos < this.src.length && this.src[this.pos] !== '\n') this.pos++;
        continue;
      }
      REDIRECTION.lastIndex = this.pos;
      const redirection = REDIRECTION.exec(this.src);
      if (redirection) {
        const op = redirection[2];
        if (op === '<<' || op === '<<-') throw new Unsure('heredoc');
        this.pos = REDIRECTION.lastIndex;
        this.skipBlanks();
        const target = this.readWord();
        if (!target.raw) throw new Unsure(`redirection "${op}" without a target`);
        const toDescriptor = (op === '>&' || op === '<&') && /^(\d+-?|-)$/.test(target.plain);
        if ((OUTPUT_OPS.has(op) || op === '>&') && !toDescriptor && target.plain !== '/dev/null') writesFile = true;
        const joined = `${redirection[0]}${toDescriptor ? '' : ' '}${target.raw}`;
        words.push({ raw: joined, plain: joined });
        continue;
      }
      const word = this.readWord();
      if (!word.raw) throw new Unsure(`unreadable character "${c}"`);
      words.push(word);
    }
    if (afterGroup) {
      if (words.length > 0) throw new Unsure('words or redirections after a ( ... ) group');
      return;
    }
    while (words.length > 0 && KEYWORDS.has(words[0].raw)) words.shift();
    if (words.length > 0 && UNREADABLE_KEYWORDS.has(words[0].raw)) throw new Unsure(`"${words[0].raw}" construct`);
    if (words.length === 0) return;
    this.parts.push({
      text: words.map((w) => w.raw).join(' '),
      plain: words.map((w) => w.plain).join(' '),
      words: words.map((w) => w.plain),
      writesFile,
    });
  }

  private readWord(): Word {
    const start = this.pos;
    let plain = '';
    while (this.pos < this.src.length) {
      const c = this.src[this.pos];
      const next = this.src[this.pos + 1];
      if (BLANKS.has(c) || SEPARATORS.has(c) || c === '(' || c === ')') break;
      if ((c === '<' || c === '>') && next !== '(') break;
      if (c === '\\') {
        if (next === '\n') this.pos += 2;
        else {
          plain += next ?? '\\';
          this.pos += next === undefined ? 1 : 2;
        }
      } else if (c === "'") {
        const close = this.src.indexOf("'", this.pos + 1);
        if (close < 0) throw new Unsure('unbalanced single quote');
        plain += this.src.slice(this.pos + 1, close);
        this.pos = close + 1;
      } else if (c === '$' && next === "'") {
        plain += this.readAnsiQuoted();
      } else if (c === '"') {
        plain += this.readDoubleQuoted();
      } else if (c === '$' || c === '`' || c === '<' || c === '>') {
        plain += this.readExpansion();
      } else {
        plain += c;
        this.pos++;
      }
    }
    return { raw: this.src.slice(start, this.pos), plain };
  }

  private readAnsiQuoted(): string {
    const start = this.pos;
    this.pos += 2;
    while (this.pos < this.src.length && this.src[this.pos] !== "'") this.pos += this.src[this.pos] === '\\' ? 2 : 1;
    if (this.pos >= this.src.length) throw new Unsure('unbalanced $\' quote');
    this.pos++;
    return this.src.slice(start + 2, this.pos - 1);
  }

  private readDoubleQuoted(): string {
    let plain = '';
    this.pos++;
    while (this.pos < this.src.length && this.src[this.pos] !== '"') {
      const c = this.src[this.pos];
      if (c === '\\') {
        plain += this.src[this.pos + 1] ?? '';
        this.pos += 2;
      } else if (c === '$' || c === '`') {
        plain += this.readExpansion();
      } else {
        plain += c;
        this.pos++;
      }
    }
    if (this.pos >= this.src.length) throw new Unsure('unbalanced double quote');
    this.pos++;
    return plain;
  }

  /** `$(...)`, backticks, `<(...)`, `>(...)`: their commands become parts; `${...}`, `$((...))` are skipped. */
  private readExpansion(): string {
    const start = this.pos;
    const c = this.src[this.pos];
    const next = this.src[this.pos + 1];
    if (c === '`') {
      this.readBackticks();
    } else if (next === '(' && this.src[this.pos + 2] === '(' && c === '$') {
      this.skipBalanced('(', ')', 'arithmetic expansion');
    } else if (next === '(') {
      this.pos += 2;
      this.readList(')');
      this.pos++;
    } else if (c === '$' && next === '{') {
      this.pos++;
      this.skipBalanced('{', '}', 'parameter expansion');
    } else {
      this.pos++;
    }
    return this.src.slice(start, this.pos);
  }

  private readBackticks(): void {
    let inner = '';
    let i = this.pos + 1;
    for (; i < this.src.length && this.src[i] !== '`'; i++) {
      if (this.src[i] === '\\' && '`\\$'.includes(this.src[i + 1] ?? '')) i++;
      inner += this.src[i];
    }
    if (i >= this.src.length) throw new Unsure('unbalanced backtick');
    const reader = new CommandReader(inner, this.depth + 1);
    try {
      reader.readList(null);
    } finally {
      this.parts.push(...reader.parts);
    }
    this.pos = i + 1;
  }

  /** Skips a bracketed expansion that cannot run commands; one that could is unsure. */
  private skipBalanced(open: string, close: string, what: string): void {
    let depth = 0;
    const start = this.pos;
    for (; this.pos < this.src.length; this.pos++) {
      const c = this.src[this.pos];
      if (c === open) depth++;
      else if (c === close && --depth === 0) break;
    }
    if (this.pos >= this.src.length) throw new Unsure(`unbalanced ${what}`);
    this.pos++;
    // Quotes could hide a closing bracket from this count, and substitutions would run commands.
    if (/\$\(|`|<\(|>\(|["'\\]/.test(this.src.slice(start + 1, this.pos))) throw new Unsure(`quotes or a command inside ${what}`);
  }

  private skipBlanks(): void {
    while (this.pos < this.src.length) {
      const c = this.src[this.pos];
      if (BLANKS.has(c)) this.pos++;
      else if (c === '\\' && this.src[this.pos + 1] === '\n') this.pos += 2;
      else return;
    }
  }
}
