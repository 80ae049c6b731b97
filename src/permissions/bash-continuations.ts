/**
 * Bash removes a backslash-newline (a line continuation) before it reads a word or an operator,
 * except inside single quotes, `$'…'` and comments, where the backslash is kept and a comment
 * ends at the newline. The parser we match rules with (mvdan/sh) joins some of those too, so
 * `echo hi #\` + newline + `touch x` reads to it as one `echo` while bash runs `touch x`, and
 * `>>\` + newline + `~/.bashrc` hides a write. So continuations are resolved here, the way bash
 * resolves them, and the parser only ever reads text without them.
 *
 * The same pass notes where bash starts each comment: the parser also takes a `#` right after a
 * quote (`echo 'a'#x; touch y`) for one, where bash reads on, so the reader compares the two.
 *
 * The scanner follows only what it must to place a backslash-newline: unquoted text, `'…'`,
 * `"…"`, `$'…'` and comments. Where its reading could drift from bash's (backticks, heredoc
 * bodies, substitutions nested in double quotes, a `#` earlier on the line) it stops resolving:
 * any later continuation is kept and reported as a doubt, so the command is never allowed by a
 * pattern rule. Those constructs make a command unsure anyway.
 */

export interface JoinedCommand {
  /** The command with every continuation bash would remove removed. */
  text: string;
  /** Where bash starts a comment in `text` (character offsets of each `#`), for checking the parser's reading. */
  comments: number[];
  /** Why a continuation was left in place; absent when every one was resolved. */
  doubt?: string;
}

type Mode = 'code' | 'double' | 'single' | 'ansi' | 'comment';

/**
 * Characters after which a `#` starts a comment (a word starts there): bash's blanks are space and
 * tab only (`a\f#x` is one word). `)` is not one: `$(x)#y` is one word.
 */
const WORD_BREAK = /[ \t\n;&|(<>]/;

/**
 * @example joinContinuations('npm test \\\n  --watch').text // 'npm test   --watch'
 * @example joinContinuations('echo hi #\\\ntouch x').doubt // 'a line continuation in or after a comment'
 */
export function joinContinuations(command: string): JoinedCommand {
  // The parser takes CR LF for a newline, so `\` CR LF is a continuation to it; to bash it is an escaped CR, then a new command.
  if (command.includes('\r'))
    return { text: command, comments: [], doubt: 'a carriage return, which the parser and bash read differently' };
  if (!command.includes('\\\n') && !command.includes('#')) return { text: command, comments: [] };
  const comments: number[] = [];
  let out = '';
  let mode: Mode = 'code';
  // The first construct after which the scanner no longer trusts its own reading.
  let lost: string | undefined;
  let hashOnLine = false;
  let doubt: string | undefined;
  // The last character read (continuations skipped) was an unescaped `$` / `<` in unquoted text or double quotes.
  let dollar = false;
  let less = false;
  for (let i = 0; i < command.length; i++) {
    const c = command[i];
    const next = command[i + 1];
    if (c === '\\' && next === '\n') {
      const why = continuationDoubt(mode, lost, hashOnLine);
      if (why === 'literal') out += '\\\n';
      else if (why) {
        doubt ??= why;
        // Kept for the parser to stumble on, except that bash ends a comment here: deny rules try this reading.
        out += mode === 'comment' ? '\n' : '\\\n';
      }
      // A comment ends at this newline whatever the backslash before it.
      if (mode === 'comment') mode = 'code';
      hashOnLine = false;
      i++;
      continue;
    }
    if (c === '\n') hashOnLine = false;
    // A quoted `#` is plain text; an unquoted one on the line, comment or not, makes later continuations doubtful.
    if (c === '#' && mode === 'code') hashOnLine = true;
    // Two-character tokens (`$'`, `$(`, `<<`) are read from the joined text: a continuation between them still joins them.
    const afterDollar: boolean = dollar;
    const afterLess: boolean = less;
    dollar = false;
    less = false;
    switch (mode) {
      case 'comment':
        if (c === '\n') mode = 'code';
        out += c;
        break;
      case 'single':
        if (c === "'") mode = 'code';
        out += c;
        break;
      case 'ansi':
        if (c === '\\' && next !== undefined) {
          out += c + next;
          i++;
        } else {
          if (c === "'") mode = 'code';
          out += c;
        }
        break;
      case 'double':
        if (c === '\\' && next !== undefined) {
          out += c + next;
          i++;
          break;
        }
        // `$$` is a parameter: the second `$` starts nothing.
        dollar = c === '$' && !afterDollar;
        if (c === '"') mode = 'code';
        // Quotes nested in these follow their own rules, which the scanner does not track.
        else if (c === '`') lost ??= 'backticks';
        else if (afterDollar && (c === '(' || c === '{' || c === '[')) lost ??= 'a substitution inside double quotes';
        out += c;
        break;
      case 'code':
        if (c === '\\' && next !== undefined) {
          out += c + next;
          i++;
          break;
        }
        dollar = c === '$' && !afterDollar;
        less = c === '<';
        if (c === "'") mode = afterDollar ? 'ansi' : 'single';
        else if (c === '"') mode = 'double';
        else if (c === '#' && (out.length === 0 || WORD_BREAK.test(out[out.length - 1]))) {
          mode = 'comment';
          comments.push(out.length);
        } else if (c === '`') lost ??= 'backticks';
        else if (c === '<' && afterLess) lost ??= 'a heredoc';
        out += c;
        break;
      default: {
        const never: never = mode;
        throw new Error(`unknown scanner mode ${String(never)}`);
      }
    }
  }
  return doubt === undefined ? { text: out, comments } : { text: out, comments, doubt };
}

/** '' when bash removes this continuation, 'literal' when bash keeps it as text, else why the scanner cannot tell. */
function continuationDoubt(mode: Mode, lost: string | undefined, hashOnLine: boolean): string {
  if (mode === 'comment' || hashOnLine) return 'a line continuation in or after a comment';
  if (lost) return `a line continuation after ${lost}`;
  if (mode === 'single' || mode === 'ansi') return 'literal';
  return '';
}
