import type { seededRandom } from './random.js';

/**
 * Issue 38's deny-rule generator: commands that are valid bash by construction (every one parses
 * and runs), each hiding the denied `touch P` somewhere a deny rule is promised to see it: behind
 * wrappers and their options, in code passed as a string (`eval`, `bash -c`, `trap`, a `git -c`
 * alias or pager), in substitutions, groups, loops, functions, pipelines, heredocs. Some carry no
 * denied command at all, so the allowed side is not empty. Run with `bash(touch*)` denied in
 * bypassPermissions mode: any allowed command that leaves a file behind is a bypass.
 */

type Random = ReturnType<typeof seededRandom>;

/** The rules the generated commands are judged by. */
export const DENY_FUZZ_RULES = ['bash(touch*)'];

/** The denied command, written the ways a reader must see through (all literal words). */
const TOUCH = [
  'touch P',
  '/usr/bin/touch P',
  'touch -- P',
  "'touch' P",
  '"touch" "P"',
  't\\ouch P',
  'touch ./P',
  'touch ../P',
  'touch ~/P',
];

/** Commands that write nothing. */
const HARMLESS = ['true', 'echo hi', ':', 'ls >/dev/null', 'printf %s x >/dev/null', 'cat </dev/null', 'test -e x'];

/** Wrappers that run the rest of their words. */
const WRAPPERS = [
  'nice -n 5',
  'env A=1',
  'env -u HOME',
  'timeout 5',
  'timeout -s KILL 5',
  'nohup',
  'command',
  'builtin command',
  'stdbuf -o0',
  'setsid -w',
];

/** Quotes `code` for one word of bash in single quotes. */
const single = (code: string) => `'${code.replaceAll("'", `'\\''`)}'`;

/** A command (valid bash) that runs `inner` somewhere. */
type Form = (inner: string, r: Random) => string;

const FORMS: readonly Form[] = [
  (x) => x,
  // A wrapper runs a program: a compound command or a list goes in through `bash -c`.
  (x, r) => `${r.pick(WRAPPERS)} ${/^[\w/'"\\]/.test(x) && !/^(case|if|for|while|time)\b|[;&|()]/.test(x) ? x : `bash -c ${single(x)}`}`,
  (x) => `eval ${single(x)}`,
  (x) => `bash -c ${single(x)}`,
  (x) => `sh -c ${single(x)}`,
  (x) => `trap ${single(x)} EXIT`,
  (x) => `trap -- ${single(x)} EXIT INT`,
  (x) => `git -c alias.z=${single(`!${x}`)} z 2>/dev/null`,
  (x) => `git -c ${single(`alias.y=!${x}`)} y 2>/dev/null`,
  (x) => `echo $( ${x} )`,
  (x) => `echo "\`${x}\`"`,
  // Spaced: `((` would open an arithmetic command instead of two subshells.
  (x) => `( ${x} )`,
  (x) => `{ ${x}; }`,
  (x, r) => `${r.pick(HARMLESS)}; ${x}`,
  (x, r) => `${r.pick(HARMLESS)} && ${x}`,
  (x) => `false || ${x}`,
  (x) => `echo | { ${x}; }`,
  (x) => `if true; then ${x}; fi`,
  (x) => `for i in 1; do ${x}; done`,
  (x) => `case a in a) ${x};; esac`,
  (x) => `f() { ${x}; }; f`,
  (x) => `${x} & wait`,
  (x) => `echo <(${x}) >/dev/null; wait`,
  (x) => `while ${x}; do break; done`,
  (x) => `! { ${x}; }`,
  (x) => `time ${x}`,
];

/** Only `touch P`'s own words: forms that pass words to another program rather than code. */
const ARGUMENT_FORMS: readonly Form[] = [(x) => `echo ${x.replace(/^\S+ /, '')} | xargs touch`, (x) => `find . -maxdepth 0 -exec ${x} \\;`];

/**
 * One valid command: `depth` nested forms around the denied command (or a harmless one).
 * @example denyFuzzCommand(seededRandom(1)) // "nice -n 5 bash -c 'f() { touch P; }; f'"
 */
export function denyFuzzCommand(r: Random): { command: string; denied: boolean } {
  const denied = r.next() < 0.75;
  let command = denied ? r.pick(TOUCH) : r.pick(HARMLESS);
  if (denied && r.next() < 0.1) return { command: r.pick(ARGUMENT_FORMS)('touch P', r), denied };
  const depth = 1 + Math.floor(r.next() * 3);
  for (let i = 0; i < depth; i++) command = r.pick(FORMS)(command, r);
  // A heredoc ends at its own line, so it can only be the outermost form.
  if (r.next() < 0.1) command = `cat <<EOF\n$( ${command} )\nEOF\n`;
  return { command, denied };
}
