import type { seededRandom } from './random.js';

/**
 * The grammar of the bash fuzz test (issue 31): an allowed, side-effect-free command followed by
 * shell pieces, many of them ways to create the file `P` in disguise, then mutated the way the
 * issue's bypasses were built: line continuations at random offsets (inside operators, quotes,
 * `$(`, words), comments, CRs and newlines. Every command the rules allow is then run in a real
 * bash; none of the allowed commands writes anything, so any file that appears is a bypass.
 */

type Random = ReturnType<typeof seededRandom>;

/** Commands the fuzz rules allow by prefix; none of them writes a file whatever its arguments. */
export const PREFIXES = ['echo', 'echo -n', 'ls', 'true', 'git status', 'cat', 'sort'] as const;
export const FUZZ_ALLOW = ['bash(echo*)', 'bash(ls*)', 'bash(true*)', 'bash(git status*)', 'bash(cat *)', 'bash(sort *)'];
/** For the deny pass: bypassPermissions with these, every non-denied command runs. */
export const FUZZ_DENY = ['bash(touch*)', 'write_file(**)', 'write_file(/**)'];

interface Payload {
  text: string;
  /** A deny rule is promised to see it: the payload's command or write target is written literally. */
  literal: boolean;
}

const p = (text: string, literal = true): Payload => ({ text, literal });

/** Pieces that create `P` (in the case's directory, its parent or its home) when bash runs them. */
const PAYLOADS: readonly Payload[] = [
  p('$(touch P)'),
  p('`touch P`'),
  p('"$(touch P)"'),
  p('${x:=$(touch P)}'),
  p('${x:-$(touch P)}'),
  p('$((a[$(touch P)]))'),
  p('${x:=${d:-$}(touch P)}${x@P}', false),
  p('<(touch P)'),
  p('>(touch P)'),
  p('> P'),
  p('>> P'),
  p('&> P'),
  p('2> P'),
  p('>| P'),
  p('<> P'),
  p('>P'),
  p('>&P'),
  p('> ~/P'),
  p('> ../P'),
  p('>"P"'),
  p(">'P'"),
  p('>\\P'),
  p('{fd}>P'),
  p('; touch P'),
  p('&& touch P'),
  p('|| touch P'),
  p('| touch P'),
  p('& touch P'),
  p('\ntouch P'),
  p('\n touch ../P'),
  p('<<EOF\n$(touch P)\nEOF\n'),
  p('<<EOF >P\nhi\nEOF\n'),
  p("<<'EOF'\nx\nEOF\ntouch P\n"),
  p('<<-EOF\n\t$(touch P)\n\tEOF\n'),
  p('<<< "$(touch P)"'),
  p('x=$(touch P)'),
  p('(touch P)'),
  p('{ touch P; }'),
  p('if true; then touch P; fi'),
  p('| xargs touch'),
  p('; eval touch P'),
  p("; eval 'touch P'"),
  p("; bash -c 'touch P'"),
  p('; env touch P'),
  p('; "to"uch P'),
  p('; t\\ouch P'),
  p('$(eval touch P)'),
  p('"`touch P`"'),
  p('$( (touch P) )'),
  p('a$(touch P)b'),
  p('$"$(touch P)"'),
  p('${PATH:$(touch P):1}'),
  p('#\ntouch P'),
  p("'a'#x; touch P"),
  p('"$HOME"#x\ntouch P'),
  p('$(true)#x; touch P'),
  p('# it\'s "\ntouch P'),
  p('-o P', false),
  p('--output=P', false),
  p('--out=P', false),
];

/** Pieces that do nothing outside the command's own output. */
const HARMLESS = [
  'hi',
  '-la',
  "'a b'",
  '"a b"',
  'a\\ b',
  '\\;',
  '*',
  '?',
  '[ab]',
  '{a,b}',
  '~',
  'a=b',
  '$HOME',
  '"$HOME"',
  "'$(touch P)'",
  "$'\\x24(touch P)'",
  '"\\$(touch P)"',
  '\\$(touch P)',
  '# comment',
  "# it's",
  '#',
  '2>&1',
  '>/dev/null',
  '2>/dev/null',
  '<&0',
  '< /dev/null',
  '--',
  '-',
  '.',
  'x\\',
  '"',
  "'",
  '$',
  '`',
  ';',
  '\\\\',
  '"a\\"b"',
  "$'a\\'b'",
  '$"hi"',
  '"#"',
  'a#b',
  '\\#',
  '-n',
];

/** A generated command: for the allow pass, or only from pieces a deny rule is promised to see. */
export function fuzzCommand(r: Random, literalOnly = false): string {
  const payloads = literalOnly ? PAYLOADS.filter((payload) => payload.literal) : PAYLOADS;
  let text: string = r.pick(PREFIXES);
  const count = 1 + Math.floor(r.next() * 3);
  for (let i = 0; i < count; i++) {
    const piece = r.next() < 0.3 ? r.pick(payloads).text : r.pick(HARMLESS);
    text += r.next() < 0.85 ? ` ${piece}` : piece;
  }
  return mutate(r, text);
}

/** The forms: continuations anywhere, a comment that swallows one, a CR, a stray newline. */
function mutate(r: Random, command: string): string {
  let text = command;
  const insert = (piece: string) => {
    const at = Math.floor(r.next() * (text.length + 1));
    text = text.slice(0, at) + piece + text.slice(at);
  };
  const continuations = r.next() < 0.7 ? 1 + Math.floor(r.next() * 3) : 0;
  for (let i = 0; i < continuations; i++) insert('\\\n');
  if (r.next() < 0.15) insert(r.pick([' #', ' #x\\\n', '#', "#'", '#"']));
  if (r.next() < 0.05) insert(r.pick(['\r', '\\\r\n', '\r\n']));
  // A stray shell character anywhere shifts quoting and word boundaries under everything after it.
  if (r.next() < 0.1) insert(r.pick(["'", '"', '`', '$', '#', ';', '&', '|', '<', '>', '(', ')', '{', '}', '\\', ' ', '\n', '\t']));
  if (r.next() < 0.1) text += r.pick([' #\\\ntouch P', ' #x \\\n>P', '\\\n#\\\ntouch P', ' "$\\\n(touch P)"']);
  return text;
}
