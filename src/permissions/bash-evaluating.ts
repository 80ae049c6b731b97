/**
 * Commands whose arguments are not plain data: a wildcard rule never reaches through them (only an
 * exact rule allows them), and deny rules read through the wrappers to the command they run.
 */

/** Commands that run the rest of their words as a command, after options whose values vary (`nice -n 5 rm x`). */
export const COMMAND_WRAPPERS: ReadonlySet<string> = new Set([
  'sudo',
  'doas',
  'env',
  'command',
  'exec',
  'nohup',
  'builtin',
  'nice',
  'time',
  'timeout',
  'xargs',
  'stdbuf',
  'setsid',
  'ionice',
  'chrt',
  'taskset',
  'watch',
  'flock',
  'chroot',
  'unbuffer',
  'strace',
  'ltrace',
]);

/**
 * Commands that run or evaluate their arguments (as code, as a command, or as an arithmetic or
 * array subscript): a wildcard rule never reaches through them, only an exact rule allows them.
 */
export const EVALUATING_COMMANDS: ReadonlySet<string> = new Set([
  'eval',
  'source',
  '.',
  'trap',
  'let',
  'declare',
  'typeset',
  'local',
  'readonly',
  'export',
  'read',
  'mapfile',
  'readarray',
  'unset',
  'alias',
  'enable',
  'hash',
  'printf',
  'test',
  '[',
  'shopt',
  'set',
  'fc',
  'coproc',
  'bash',
  'sh',
  'zsh',
  'dash',
  'ksh',
  'su',
  'find',
  ...COMMAND_WRAPPERS,
]);
