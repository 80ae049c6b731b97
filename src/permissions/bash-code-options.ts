/**
 * Options that make a program load code or write where it is told, so that a prefix rule such as
 * `bash(npm test*)` or `bash(git status*)` would otherwise cover far more than its words say:
 * `npm test --node-options=--import=data:…` runs any JavaScript, `git -c core.pager=… status`
 * runs any command, `git diff --output=~/.bashrc` writes any file. A command with one of these is
 * evaluated rather than matched: a wildcard rule does not cover it, only an exact rule does.
 *
 * The tables are a judgment, not a proof: they name the options of the commonly allowed programs
 * that run code or choose an output file. Long options are matched the way GNU getopt, git and
 * npm read them, as any unambiguous prefix (`--node-opt` is `--node-options`), so every prefix of
 * a listed name counts; short options are matched inside clusters (`-pe` holds `-e`).
 */

interface OptionTable {
  /** Long option names, without dashes, lower case. */
  long: readonly string[];
  /** Short option letters. */
  short: string;
  /** Go's flag package: every option is long, written with one or two dashes, and never abbreviated. */
  goFlags?: boolean;
  /** `NAME=value` arguments override the program's variables (`make SHELL=/tmp/x`). */
  assignments?: boolean;
  /** npm's config reader: `_` and `-` are the same, case does not matter. */
  npmNames?: boolean;
}

const NODE: OptionTable = {
  long: [
    'eval',
    'print',
    'require',
    'import',
    'loader',
    'experimental-loader',
    'env-file',
    'env-file-if-exists',
    'inspect',
    'inspect-brk',
    'inspect-wait',
    'inspect-port',
    'debug',
    'debug-brk',
    'openssl-config',
    'snapshot-blob',
    'build-snapshot',
    'interactive',
    'redirect-warnings',
    'diagnostic-dir',
    'report-dir',
    'report-directory',
    'report-filename',
    'cpu-prof-dir',
    'heap-prof-dir',
    'prof',
    'run',
  ],
  short: 'epri',
};

/** npm's, npx's, yarn's and pnpm's own options that run code or move the project, plus what they forward to test runners. */
const NPM: OptionTable = {
  long: [
    ...NODE.long,
    'node-options',
    'script-shell',
    'shell',
    'call',
    'prefix',
    'userconfig',
    'globalconfig',
    'npmrc',
    'node-gyp',
    'init-module',
    'onload-script',
    'editor',
    'git',
    'browser',
    'viewer',
    'registry',
    'package',
    'dir',
    'cwd',
    'config',
    'root',
    'rootdir',
    'roots',
    'setup-files',
    'setupfiles',
    'setupfilesafterenv',
    'global-setup',
    'globalsetup',
    'global-teardown',
    'globalteardown',
    'reporter',
    'reporters',
    'environment',
    'test-environment',
    'testenvironment',
    'preset',
    'transform',
    'resolver',
    'runner',
    'testrunner',
    'output-file',
    'outputfile',
    'output',
    // Where npm writes its logs and its cache: any folder, so a prefix rule must not cover them.
    'logs-dir',
    'cache',
    'tmp',
  ],
  short: 'ceprCi',
  npmNames: true,
};

const GIT: OptionTable = {
  long: [
    'config-env',
    'exec-path',
    'git-dir',
    'work-tree',
    'separate-git-dir',
    'super-prefix',
    'template',
    'output',
    'output-directory',
    'upload-pack',
    'receive-pack',
    'exec',
    'extcmd',
    'ext-diff',
    'textconv',
    'open-files-in-pager',
    'tool',
    'remote',
  ],
  short: 'cCOx',
};

const PYTEST: OptionTable = {
  long: [
    'config-file',
    'rootdir',
    'override-ini',
    'confcutdir',
    'basetemp',
    'junitxml',
    'junit-xml',
    'result-log',
    'resultlog',
    'report-log',
    'log-file',
    'debug',
    'pastebin',
    'html',
    'cov-report',
    'import-mode',
    'pyargs',
  ],
  short: 'pco',
};

const TABLES: Readonly<Record<string, OptionTable>> = {
  node: NODE,
  nodejs: NODE,
  deno: NODE,
  tsx: NODE,
  'ts-node': NODE,
  npm: NPM,
  npx: NPM,
  pnpm: NPM,
  pnpx: NPM,
  yarn: NPM,
  yarnpkg: NPM,
  bun: NPM,
  bunx: NPM,
  corepack: NPM,
  vitest: NPM,
  jest: NPM,
  mocha: NPM,
  git: GIT,
  pytest: PYTEST,
  'py.test': PYTEST,
  make: { long: ['file', 'makefile', 'directory', 'eval', 'include-dir'], short: 'fCEI', assignments: true },
  gmake: { long: ['file', 'makefile', 'directory', 'eval', 'include-dir'], short: 'fCEI', assignments: true },
  cargo: { long: ['config', 'manifest-path', 'target-dir', 'out-dir', 'artifact-dir'], short: 'CZ' },
  go: {
    long: [
      'toolexec',
      'exec',
      'overlay',
      'modfile',
      'coverprofile',
      'cpuprofile',
      'memprofile',
      'blockprofile',
      'mutexprofile',
      'trace',
      'outputdir',
      'o',
      'c',
      'C',
    ],
    short: '',
    goFlags: true,
  },
  sort: { long: ['output', 'compress-program'], short: 'o' },
  tar: {
    long: ['to-command', 'checkpoint-action', 'use-compress-program', 'rsh-command', 'info-script', 'new-volume-script'],
    short: 'IF',
  },
  rsync: { long: ['rsh', 'rsync-path'], short: 'e' },
  ssh: { long: [], short: 'oF' },
  scp: { long: [], short: 'oFS' },
  curl: {
    long: [
      'output',
      'remote-name',
      'remote-name-all',
      'config',
      'upload-file',
      'dump-header',
      'trace',
      'trace-ascii',
      'cookie-jar',
      'libcurl',
      'output-dir',
    ],
    short: 'oOKTDc',
  },
  wget: {
    long: ['output-document', 'output-file', 'append-output', 'directory-prefix', 'execute', 'config', 'save-cookies'],
    short: 'oOaPe',
  },
};

/** Runners that hand the rest of their words to another program: `python -m pytest …` is pytest. */
const MODULE_RUNNERS = new Set(['python', 'python3', 'py']);

/**
 * The first word that loads code or redirects output, or undefined. `globbed` says an argument
 * holds an unquoted glob: for a program in the tables it may expand to a file named like an
 * option (`sort *` with a file named `-o`), so it counts as one.
 * @example codeLoadingOption(['npm', 'test', '--node-options=--import=data:x']) // '--node-options=--import=data:x'
 * @example codeLoadingOption(['git', 'status', '--short']) // undefined
 */
export function codeLoadingOption(words: readonly string[], globbed = false): string | undefined {
  const program = programName(words[0] ?? '');
  let args = words.slice(1);
  let table = TABLES[program];
  if (MODULE_RUNNERS.has(program)) {
    const m = args.findIndex((word) => word === '-m' || word.startsWith('-m'));
    if (m < 0) return args.find((word) => word === '-c' || /^-[A-Za-z]*c/.test(word));
    const module = args[m] === '-m' ? args[m + 1] : args[m].slice(2);
    table = TABLES[module ?? ''];
    args = args.slice(m + (args[m] === '-m' ? 2 : 1));
  }
  if (!table) return undefined;
  if (globbed) return 'a glob, which may expand to an option';
  return args.find((word) => loadsCode(word, table));
}

function programName(word: string): string {
  const base = word.slice(word.lastIndexOf('/') + 1);
  // `python3.12`, `node20` and the like are the same program.
  return base.replace(/^(python|node)[0-9.]*$/, '$1');
}

function loadsCode(word: string, table: OptionTable): boolean {
  if (table.assignments && /^[A-Za-z_][A-Za-z0-9_]*[+:?]?=/.test(word)) return true;
  if (word === '--' || word === '-' || !word.startsWith('-')) return false;
  if (table.goFlags) return table.long.includes(word.replace(/^--?/, '').split('=')[0]);
  if (word.startsWith('--')) {
    let name = word.slice(2).split('=')[0].toLowerCase();
    if (table.npmNames) name = name.replace(/_/g, '-');
    return name.length > 0 && table.long.some((long) => long.startsWith(name));
  }
  const cluster = word.slice(1).split('=')[0];
  return [...cluster].some((letter) => table.short.includes(letter));
}
