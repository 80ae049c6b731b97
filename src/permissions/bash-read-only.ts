import type { SimpleCommand } from './bash-command.js';

/**
 * Commands that only read, which run without an allow rule as in Claude Code (`ls`, `grep -r x .`,
 * `git status`), each with the options that would make it write, run code or change the system:
 * a command holding one of those (`find . -delete`, `sort -o f`, `date -s …`) asks as before.
 * The bash reader decides the rest: a part that writes to a file (`ls > f`), runs its arguments,
 * or a command it cannot read whole (`echo $(rm x)`) is never read-only.
 */
interface ReadOnlyCommand {
  /** Long options (`--output`, also as `--output=f`) and single words (`-delete` for find) that break it. */
  refused?: readonly string[];
  /** Letters that break it anywhere in a short option cluster (`-o` in `sort -no f`). */
  short?: string;
  /** A reason it is not read-only with these words beyond its options (`uniq in out` writes `out`). */
  check?: (args: readonly string[]) => string | undefined;
}

const positional = (args: readonly string[]) => args.filter((word) => !word.startsWith('-'));

/** `git <subcommand>` that only read, and what breaks each. */
const GIT: Readonly<Record<string, ReadOnlyCommand>> = {
  status: {},
  log: { refused: ['--output'] },
  diff: { refused: ['--output', '--ext-diff', '--textconv'] },
  show: { refused: ['--output', '--ext-diff', '--textconv'] },
  blame: {},
  'ls-files': {},
  'rev-parse': {},
  describe: {},
  shortlog: {},
  // Listing only: a name creates, -d/-m/-c delete, move or copy.
  branch: {
    short: 'dDmMcCfu',
    refused: ['--delete', '--move', '--copy', '--force', '--set-upstream-to', '--unset-upstream', '--edit-description'],
    check: (args) => (positional(args).length > 0 ? 'a branch name creates it' : undefined),
  },
  tag: {
    short: 'dfsau',
    refused: ['--delete', '--force', '--sign', '--annotate'],
    check: (args) =>
      positional(args).length > 0 && !args.includes('-l') && !args.includes('--list') ? 'a tag name creates it' : undefined,
  },
  remote: { check: (args) => (positional(args).length > 0 ? 'a remote subcommand changes the configuration' : undefined) },
};

/** The read-only commands. README.md ("Read-only commands") lists them, and test/permissions/bash-read-only.test.ts pins them. */
export const READ_ONLY_COMMANDS: Readonly<Record<string, ReadOnlyCommand>> = {
  ls: {},
  pwd: {},
  echo: {},
  cat: {},
  head: {},
  tail: {},
  wc: {},
  grep: {},
  egrep: {},
  fgrep: {},
  // --pre runs a program on every file.
  rg: { refused: ['--pre'] },
  find: { refused: ['-exec', '-execdir', '-ok', '-okdir', '-delete', '-fprint', '-fprint0', '-fprintf', '-fls'] },
  tree: { short: 'o' },
  file: {},
  stat: {},
  du: {},
  df: {},
  which: {},
  whoami: {},
  id: {},
  uname: {},
  // A name sets the host name.
  hostname: { check: (args) => (positional(args).length > 0 ? 'a name sets the host name' : undefined) },
  // -s and a bare time set the clock; `+FORMAT` only formats.
  date: {
    short: 's',
    refused: ['--set'],
    check: (args) =>
      positional(args).some((word) => !word.startsWith('+')) ? 'an argument that is not a +FORMAT sets the clock' : undefined,
  },
  basename: {},
  dirname: {},
  realpath: {},
  readlink: {},
  sort: { short: 'o', refused: ['--output', '--compress-program'] },
  // `uniq in out` writes `out`.
  uniq: { check: (args) => (positional(args).length > 1 ? 'a second file name is its output' : undefined) },
  cut: {},
  nl: {},
  diff: {},
  cmp: {},
  comm: {},
  true: {},
  false: {},
  printenv: {},
  cd: {},
};

/**
 * Why a simple command is not read-only, or undefined when it is.
 * @example notReadOnly(splitCommand('find . -delete').parts[0]) // 'find -delete changes or runs something'
 * @example notReadOnly(splitCommand('git status').parts[0]) // undefined
 */
export function notReadOnly(part: SimpleCommand): string | undefined {
  if (part.writesFile) return 'it writes to a file';
  const [name = '', ...args] = part.words;
  // The reader marks find as evaluating for its -exec; the table below judges find's options itself.
  if (part.evaluates && name !== 'find') return 'it runs or evaluates its arguments';
  if (name.includes('/')) return 'a program named by its path';
  if (name === 'git') return notReadOnlyGit(args);
  const command = READ_ONLY_COMMANDS[name];
  if (!command) return `${name || 'the command'} is not among the read-only commands`;
  return breaks(name, command, args);
}

function notReadOnlyGit(args: readonly string[]): string | undefined {
  // Options before the subcommand (-c, -C, --exec-path, ...) change what git runs: not read-only.
  const [sub = '', ...rest] = args;
  const command = GIT[sub];
  if (!command) return `git ${sub} is not among the read-only git commands`;
  return breaks(`git ${sub}`, command, rest);
}

function breaks(name: string, command: ReadOnlyCommand, args: readonly string[]): string | undefined {
  for (const word of args) {
    if (word === '--') break;
    const option = breakingOption(word, command);
    if (option !== undefined) return `${name} ${option} changes or runs something`;
  }
  return command.check?.(args);
}

/** The option this word is (or, as an unquoted glob, could expand to) that breaks the command. */
function breakingOption(word: string, { refused = [], short = '' }: ReadOnlyCommand): string | undefined {
  if (/[*?[]/.test(word)) {
    // `find . *` with a file named `-delete`: a glob is as bad as every option it could become.
    const glob = globRegExp(word);
    return [...refused, ...[...short].map((letter) => `-${letter}`)].find((option) => glob.test(option));
  }
  const name = word.split('=')[0];
  if (refused.includes(name)) return name;
  if (/^-[^-]/.test(word)) {
    const letter = [...word.slice(1)].find((c) => short.includes(c));
    if (letter !== undefined) return `-${letter}`;
  }
  return undefined;
}

/** A glob as a RegExp; a bracket expression counts as any one character (it could be the one that matters). */
function globRegExp(glob: string): RegExp {
  const source = glob
    .replace(/\[[^\]]*\]?/g, '?')
    .split('')
    .map((c) => (c === '*' ? '.*' : c === '?' ? '.' : c.replace(/[.+^${}()|\\[\]]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}$`);
}
