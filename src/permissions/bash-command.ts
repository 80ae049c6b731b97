import { codeLoadingOption } from './bash-code-options.js';
import { COMMAND_WRAPPERS, EVALUATING_COMMANDS } from './bash-evaluating.js';
import { joinContinuations } from './bash-continuations.js';
import { naiveParts, naiveWrites } from './bash-naive.js';
import { readRedirect } from './bash-redirects.js';
import { plainWord, slice } from './bash-words.js';
import { children, commentOffsets, field, list, nodeType, offsets, parseShell, text, type ShNode } from './shell-syntax.js';

/**
 * Reads a shell command with a real bash parser (mvdan/sh) into the simple commands it would
 * run, so that a rule can be checked against every one of them: `npm test && rm -rf ~` is two
 * commands, and `echo $(rm x)` runs `rm x` too. The reader understands a small, closed set of
 * constructs: lists, pipelines, groups, `if`/`while`, plain commands whose words are literal,
 * and redirections to literal targets. Anything else (parameter expansion, arithmetic,
 * substitutions, heredocs, assignments, `declare`, `[[ ]]`, functions, ...) makes the result
 * `unsure`, and an unsure command is never allowed by a pattern rule. Deny and ask rules still
 * see every command the parser found, wherever it sits.
 *
 * The parser reads the command only after line continuations are resolved as bash resolves them
 * (bash-continuations.ts), and its comments are checked against bash's; where the two readings
 * could differ the command is unsure and also read naively (bash-naive.ts), for restrictions.
 */

export interface SimpleCommand {
  /** The words as written (quotes kept), one space apart, redirections included. */
  text: string;
  /** The same words with quotes and escapes removed. */
  plain: string;
  /** The words with quotes and escapes removed, one by one (redirections left out). */
  words: string[];
  /** A redirection writes to a file (any operator but `<`, `<<`, `<<<`, `<&`; not `/dev/null` or a descriptor). */
  writesFile: boolean;
  /** The command runs or evaluates its arguments (`eval`, `env`, `xargs`, `printf -v`...). */
  evaluates: boolean;
}

export interface ParsedCommand {
  /** Every simple command, wherever it sits (substitutions, heredoc bodies, groups). */
  parts: SimpleCommand[];
  /** Every file a redirection opens for writing, wherever it sits, as written with quotes removed. */
  writes: string[];
  /** Why the reader is not sure it understands everything the command does; absent when it is. */
  unsure?: string;
}

/** Node types whose meaning the reader fully understands when their children are understood too. */
const UNDERSTOOD = new Set([
  'File',
  'Stmt',
  'BinaryCmd',
  'CallExpr',
  'Word',
  'Lit',
  'SglQuoted',
  'DblQuoted',
  'Redirect',
  'Block',
  'Subshell',
  'IfClause',
  'WhileClause',
  'TimeClause',
  'Comment',
]);

const WHY: Record<string, string> = {
  ParamExp: 'parameter expansion',
  CmdSubst: 'command substitution',
  ProcSubst: 'process substitution',
  ArithmExp: 'arithmetic expansion',
  ArithmCmd: 'arithmetic command',
  DeclClause: 'declare-like builtin',
  LetClause: '"let" builtin',
  TestClause: '"[[ ]]" test',
  ForClause: '"for" loop',
  CaseClause: '"case" construct',
  FuncDecl: 'function definition',
  CoprocClause: '"coproc" construct',
  ExtGlob: 'extended glob',
  BraceExp: 'brace expansion',
  ArrayExpr: 'array assignment',
  Assign: 'variable assignment',
};

export { COMMAND_WRAPPERS, EVALUATING_COMMANDS } from './bash-evaluating.js';

const MAX_INNER_DEPTH = 8;

/**
 * @example splitCommand('npm test && echo hi').parts.map((p) => p.text) // ['npm test', 'echo hi']
 * @example splitCommand('echo ${x@P}').unsure // 'parameter expansion'
 */
export function splitCommand(command: string): ParsedCommand {
  const known = recent.get(command);
  if (known) return known;
  const parsed = readCommand(command);
  if (command.length > RECENT_MAX_CHARS) return parsed;
  recent.set(command, parsed);
  if (recent.size > RECENT_LIMIT) recent.delete(recent.keys().next().value ?? '');
  return parsed;
}

// Every rule checks the same command again; the parser takes milliseconds, so recent readings are kept.
const RECENT_LIMIT = 512;
const RECENT_MAX_CHARS = 4096;
const recent = new Map<string, ParsedCommand>();

function readCommand(command: string): ParsedCommand {
  const joined = joinContinuations(command);
  const reading = readText(joined.text, joined.comments);
  if (joined.doubt === undefined && reading.unsure !== COMMENT_DOUBT) return reading;
  // The reader cannot prove it reads the command as bash does, so it never allows it; deny and ask
  // rules try every way bash could read it: continuations kept, all joined, and split naively.
  const all = command.replace(/\r/g, '').replace(/\\\n/g, '');
  const texts = [joined.text, command, all];
  const readings = texts.map((text) => readText(text));
  const parts = [...readings.flatMap((r) => r.parts), ...naiveParts(texts)];
  const writes = new Set([...readings.flatMap((r) => r.writes), ...naiveWrites(texts)]);
  return Object.freeze({ parts: unique(parts), writes: [...writes], unsure: joined.doubt ?? COMMENT_DOUBT });
}

const COMMENT_DOUBT = 'a "#" the parser and bash read differently (a comment to one, part of a word to the other)';

/** Reads one text; `comments` (where bash starts comments, by character) is checked against the parser's. */
function readText(command: string, comments?: readonly number[]): ParsedCommand {
  let root: ShNode;
  try {
    root = parseShell(command);
  } catch (error) {
    // bash runs what comes before a syntax error: restrictions read this naively.
    const unsure = `the command does not parse (${parseErrorText(error)})`;
    return { parts: naiveParts([command]), writes: naiveWrites([command]), unsure };
  }
  // The parser's offsets count UTF-8 bytes.
  const bytes = Buffer.from(command, 'utf8');
  const parts: SimpleCommand[] = [];
  const writes: string[] = [];
  let unsure: string | undefined;
  const doubt = (why: string) => {
    unsure ??= why;
  };
  if (
    comments &&
    !sameOffsets(
      commentOffsets(root),
      comments.map((at) => Buffer.byteLength(command.slice(0, at))),
    )
  )
    doubt(COMMENT_DOUBT);
  const stack: ShNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const type = nodeType(node);
    if (!UNDERSTOOD.has(type)) doubt(WHY[type] ?? `"${type}" construct`);
    if (type === 'Stmt') readStmt(node, bytes, { parts, writes, doubt });
    if (type === 'Word') checkLiteralWord(node, bytes, doubt);
    stack.push(...children(node).reverse());
  }
  return Object.freeze(unsure === undefined ? { parts, writes } : { parts, writes, unsure });
}

interface Reading {
  parts: SimpleCommand[];
  writes: string[];
  doubt: (why: string) => void;
}

function readStmt(stmt: ShNode, src: Buffer, { parts, writes, doubt }: Reading): void {
  const redirs = list(stmt, 'Redirs');
  const redirections = redirs.map((redir) => readRedirect(redir, src));
  for (const redirection of redirections) {
    if (redirection.heredoc) doubt('heredoc');
    if (redirection.namedDescriptor) doubt('redirection to a named descriptor');
    if (redirection.writes !== null) writes.push(redirection.writes);
  }
  const writesFile = redirections.some((redirection) => redirection.writes !== null);
  const cmd = field(stmt, 'Cmd');
  if (!cmd && redirs.length > 0) {
    // `> ~/.bashrc` alone truncates or creates the file: a command of its own.
    const text = redirections.map((redirection) => redirection.text).join(' ');
    parts.push({ text, plain: text, words: [], writesFile, evaluates: false });
    return;
  }
  if (!cmd || nodeType(cmd) !== 'CallExpr') {
    if (writesFile) doubt('output redirection after a group or compound command');
    return;
  }
  if (list(cmd, 'Assigns').length > 0) doubt('variable assignment before the command');
  const args = list(cmd, 'Args');
  if (args.length === 0) return;
  const ordered = [...args, ...redirs].sort((a, b) => offsets(a)[0] - offsets(b)[0]);
  const redirText = (node: ShNode) => redirections[redirs.indexOf(node)].text;
  const isArg = (node: ShNode) => args.includes(node);
  const words = args.map((word) => plainWord(word, src));
  const name = words[0].slice(words[0].lastIndexOf('/') + 1);
  parts.push({
    text: ordered.map((node) => (isArg(node) ? slice(src, node) : redirText(node))).join(' '),
    plain: ordered.map((node) => (isArg(node) ? plainWord(node, src) : redirText(node))).join(' '),
    words,
    writesFile,
    evaluates:
      EVALUATING_COMMANDS.has(name) ||
      codeLoadingOption(
        words,
        args.some((arg) => globMayBeOption(arg, src)),
      ) !== undefined,
  });
  // Code passed as a string still runs: read it too, so deny rules see `eval 'rm x'` and `sh -c 'rm x'`,
  // also behind a wrapper, whose option values vary (`timeout -s KILL 5 bash -c …`): every tail is tried.
  const tails = COMMAND_WRAPPERS.has(name) ? words.map((_, i) => words.slice(i)) : [words];
  const code = new Set(tails.flatMap((tail) => innerCode((tail[0] ?? '').slice((tail[0] ?? '').lastIndexOf('/') + 1), tail)));
  for (const inner of code) {
    const reading = innerReading(inner);
    parts.push(...reading.parts);
    writes.push(...reading.writes);
  }
}

function sameOffsets(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((offset, i) => offset === b[i]);
}

function unique(parts: readonly SimpleCommand[]): SimpleCommand[] {
  const seen = new Set<string>();
  return parts.filter((part) => !seen.has(part.text) && seen.add(part.text));
}

let innerDepth = 0;
function innerReading(code: string): Pick<ParsedCommand, 'parts' | 'writes'> {
  if (innerDepth >= MAX_INNER_DEPTH) return { parts: [], writes: [] };
  innerDepth++;
  try {
    return splitCommand(code);
  } finally {
    innerDepth--;
  }
}

/**
 * The strings a command runs as shell code: `eval ARGS`, `bash -c CODE`, `su -c CODE`, the body
 * of `trap CODE SIGNAL…`, and the commands a `git -c key=value` sets up (an alias, a pager...).
 */
function innerCode(name: string, words: readonly string[]): string[] {
  if (name === 'eval') return [words.slice(1).join(' ')];
  if (['bash', 'sh', 'zsh', 'dash', 'ksh', 'su'].includes(name)) {
    const flag = words.findIndex((word, i) => i > 0 && /^-[A-Za-z]*c[A-Za-z]*$/.test(word));
    if (flag > 0 && words[flag + 1] !== undefined) return [words[flag + 1]];
  }
  if (name === 'trap') return trapBody(words);
  if (name === 'git') return gitConfigCode(words);
  return [];
}

/** `trap [-lp] [--] CODE SIGNAL…`: CODE runs when a signal (or EXIT, ERR, DEBUG) comes. */
function trapBody(words: readonly string[]): string[] {
  let i = 1;
  while (words[i] !== undefined && /^-[lpP]+$/.test(words[i] as string)) i++;
  if (words[i] === '--') i++;
  const body = words[i];
  // One word alone is a signal to reset (`trap EXIT`); `-` resets too.
  return body !== undefined && body !== '-' && words.length > i + 1 ? [body] : [];
}

/** Git's own options whose value is the next word (`git -C dir -c … x`). */
const GIT_VALUE_OPTIONS = new Set([
  '-C',
  '--git-dir',
  '--work-tree',
  '--namespace',
  '--super-prefix',
  '--config-env',
  '--attr-source',
  '--exec-path',
]);

/** Config keys whose value git runs as a shell command. */
const GIT_COMMAND_KEYS =
  /^(core\.(pager|editor|sshcommand|fsmonitor|askpass|hookspath)|pager\..+|sequence\.editor|diff\.external|diff\..+\.(textconv|command)|difftool\..+\.cmd|mergetool\..+\.cmd|merge\..+\.driver|filter\..+\.(clean|smudge|process)|gpg(\..+)?\.program|credential\.helper|uploadpack\.packobjectshook|ssh\.variant|remote\..+\.(uploadpack|receivepack)|protocol\..+\.allow|core\.gitproxy)$/i;

/**
 * What `git -c key=value …` runs besides git's own command: `alias.x=!CODE` runs CODE in a
 * shell, `alias.x=push --force` runs `git push --force`, `core.pager=CODE` and the like run CODE.
 * @example gitConfigCode(['git', '-c', 'alias.x=!rm -rf ~', 'x']) // ['rm -rf ~']
 */
function gitConfigCode(words: readonly string[]): string[] {
  const code: string[] = [];
  for (let i = 1; i < words.length; i++) {
    const word = words[i] as string;
    // Git's own options end at the first word that is not one: the subcommand.
    if (!word.startsWith('-')) break;
    if (GIT_VALUE_OPTIONS.has(word)) i++;
    if (word !== '-c' || words[i + 1] === undefined) continue;
    const setting = words[++i] as string;
    const equals = setting.indexOf('=');
    if (equals < 0) continue;
    const key = setting.slice(0, equals);
    const value = setting.slice(equals + 1);
    if (/^alias\./i.test(key)) code.push(value.startsWith('!') ? value.slice(1) : `git ${value}`);
    else if (GIT_COMMAND_KEYS.test(key)) code.push(value.startsWith('!') ? value.slice(1) : value);
  }
  return code;
}

/** True if the word holds an unquoted glob that could expand to an option: nothing, or `-…`, before it (`*`, `-*`, not `src/*.ts`). */
function globMayBeOption(word: ShNode, src: Buffer): boolean {
  let prefix = '';
  for (const part of list(word, 'Parts')) {
    const type = nodeType(part);
    if (type !== 'Lit') {
      // Quoted text is literal; anything else makes the command unsure already.
      prefix += type === 'SglQuoted' ? text(part, 'Value') : type === 'DblQuoted' ? plainWord(part, src) : slice(src, part);
      continue;
    }
    const value = text(part, 'Value');
    for (let i = 0; i < value.length; i++) {
      if (value[i] === '\\') prefix += value[++i] ?? '';
      else if ('*?['.includes(value[i])) return prefix === '' || prefix.startsWith('-');
      else prefix += value[i];
    }
  }
  return false;
}

/** Only literal pieces: unquoted text with no expansion the parser left as text, and quotes. */
function checkLiteralWord(word: ShNode, src: Buffer, doubt: (why: string) => void): void {
  let unquoted = '';
  for (const part of list(word, 'Parts')) {
    const type = nodeType(part);
    if (type === 'Lit') unquoted += text(part, 'Value');
    else unquoted += 'q';
    // bash translates $"…" through the locale's message catalog and expands the result.
    if (type === 'DblQuoted' && slice(src, part).startsWith('$')) doubt('a $"…" string (translated, then expanded)');
    if (type === 'DblQuoted' || type === 'SglQuoted') {
      // Literal here, but builtins such as `printf -v` or `test -v` evaluate subscripts in it.
      if (/\$[({[]|`/.test(slice(src, part))) doubt('an expansion inside quotes');
    }
  }
  if (/[$`()]/.test(unquoted.replace(/\\./g, ''))) doubt('an expansion the reader cannot place');
  if (/\{[^}]*(,|\.\.)[^}]*\}/.test(unquoted)) doubt('brace expansion');
}

function parseErrorText(error: unknown): string {
  const text = (error as { Error?: () => string } | null)?.Error?.();
  if (typeof text === 'string') return text;
  return error instanceof Error ? error.message : String(error);
}
