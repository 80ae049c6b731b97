import { execFile } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import path from 'node:path';

/**
 * git run by xagent itself (the system prompt's facts), outside the sandbox and the permission
 * layer, so it must run no code the repository names. What git would execute for `rev-parse`,
 * `branch --show-current`, `config` and `status` (git-config(1), githooks(5), gitattributes(5)):
 *
 * - `core.fsmonitor`: a command run on every index refresh (the finding): forced off;
 * - hooks (`post-index-change` when status writes the index; `core.hooksPath` may point anywhere):
 *   the index is not written (GIT_OPTIONAL_LOCKS=0) and hooks are looked up in /dev/null;
 * - clean/smudge/process filters named by `.gitattributes` run while status hashes a changed file:
 *   every filter defined outside the user's own (system, global, command-line) config is emptied;
 * - submodules: status runs git inside each with that repository's config: not looked into;
 * - a workspace that *is* a git folder (HEAD, config, objects planted at the top) is a bare
 *   repository to git, with a config of the model's: `safe.bareRepository=explicit` refuses it;
 * - a pager: never with a pipe, and forced to `cat` all the same; aliases cannot replace built-ins.
 * The system and global config are left alone (`GIT_CONFIG_NOSYSTEM` is not set): they are the
 * user's, not the workspace's, and nothing in the sandbox or the file tools can write them.
 */
const SAFE_CONFIG = ['core.fsmonitor=false', 'core.hooksPath=/dev/null', 'core.pager=cat', 'safe.bareRepository=explicit'];

const SAFE_ENV: NodeJS.ProcessEnv = { GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0', GIT_PAGER: 'cat', PAGER: 'cat' };

/** Config scopes that are the user's own: their filters (git-lfs, say) keep working. */
const USER_SCOPES = new Set(['system', 'global', 'command']);

/** A hung or huge repository must not hold the task up: two seconds, then no git facts. */
const GIT_TIMEOUT_MS = 2000;
/** After the timeout's SIGTERM: how long git (or a child of it holding its output open) gets before we stop waiting. */
const GIT_KILL_GRACE_MS = 500;

/**
 * The git binary from the absolute PATH entries outside the workspace: a relative entry (`.`,
 * `node_modules/.bin`) would let a `git` file the model wrote run instead. Null when there is none.
 */
export function findGit(workspace: string, env: NodeJS.ProcessEnv = process.env): string | null {
  const root = path.resolve(workspace);
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!path.isAbsolute(dir)) continue;
    const resolved = path.resolve(dir);
    if (resolved === root || resolved.startsWith(`${root}${path.sep}`)) continue;
    const candidate = path.join(resolved, 'git');
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

/**
 * One git command run with the repository's code switched off (see above); its output, or null
 * when it fails, times out or writes more than 4 MB. Never rejects.
 * @example await safeGit(['branch', '--show-current'], '/ws') // 'main'
 */
export async function safeGit(args: readonly string[], cwd: string): Promise<string | null> {
  const git = findGit(cwd);
  if (git === null) return null;
  const config = [...SAFE_CONFIG];
  if (args[0] === 'status') {
    const filters = await repositoryFilters(git, cwd);
    if (filters === null) return null;
    for (const name of filters)
      config.push(`filter.${name}.clean=`, `filter.${name}.smudge=`, `filter.${name}.process=`, `filter.${name}.required=false`);
  }
  return run(git, [...config.flatMap((entry) => ['-c', entry]), ...args], cwd);
}

/**
 * Names of the filter drivers the repository's own config files define (`.git/config`, what it
 * includes, a worktree's config), to be emptied. Null when a name cannot be given on git's command
 * line (it holds `=` or a newline): then status is not run at all.
 */
async function repositoryFilters(git: string, cwd: string): Promise<string[] | null> {
  const listing = await run(
    git,
    [...SAFE_CONFIG.flatMap((entry) => ['-c', entry]), 'config', '--null', '--show-scope', '--get-regexp', '^filter\\.'],
    cwd,
    true,
  );
  if (listing === null) return null;
  const names = new Set<string>();
  // --null --show-scope: `scope\0key\nvalue\0` per entry.
  const fields = listing.split('\0');
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const scope = fields[i];
    const key = fields[i + 1].split('\n', 1)[0];
    const match = /^filter\.(.+)\.[^.]+$/s.exec(key);
    if (!match || USER_SCOPES.has(scope)) continue;
    if (/[=\n]/.test(match[1])) return null;
    names.add(match[1]);
  }
  return [...names];
}

/** `allowExit1`: git config exits 1 when nothing matches, which is an empty answer, not a failure. */
function run(git: string, args: string[], cwd: string, allowExit1 = false): Promise<string | null> {
  return new Promise((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    let done = false;
    const settle = (output: string | null) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(output);
    };
    try {
      const env = { ...process.env, ...SAFE_ENV };
      const child = execFile(git, args, { cwd, env, encoding: 'utf8', timeout: GIT_TIMEOUT_MS, maxBuffer: 4 << 20 }, (error, stdout) => {
        if (!error) settle(stdout.trimEnd());
        else settle(allowExit1 && error.code === 1 && stdout === '' ? '' : null);
      });
      // Nothing to read: git gets end of input at once, as it got /dev/null before.
      child.stdin?.end();
      // execFile answers when git's output closes; git ignoring SIGTERM, or a child of git holding
      // the pipe, must not hold the task either.
      timer = setTimeout(() => {
        child.kill('SIGKILL');
        child.stdout?.destroy();
        child.stderr?.destroy();
        settle(null);
      }, GIT_TIMEOUT_MS + GIT_KILL_GRACE_MS);
    } catch {
      settle(null);
    }
  });
}
