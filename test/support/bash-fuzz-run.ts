import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Runs commands the way the bash tool does (`bash -c COMMAND`, stdin closed), each in its own
 * case directory `k<i>` with a working directory `d` and a home `h`, a few batch scripts in
 * parallel (one bash per batch forks a bash per case: far cheaper than a spawn from Node each).
 * Returns the indexes of the commands that left anything behind: a file in `d`, in `h`, or next
 * to them (`../P`). Each working directory first gets `planted` files (a file named `-oP` turns
 * `sort *` into `sort -oP`), which are expected to be left alone.
 */
export async function runInBash(
  commands: readonly string[],
  root: string,
  batches = 2,
  planted: readonly string[] = [],
): Promise<number[]> {
  const lines: string[][] = Array.from({ length: batches }, () => []);
  commands.forEach((command, i) => {
    const dir = path.join(root, `k${i}`);
    mkdirSync(path.join(dir, 'd'), { recursive: true });
    mkdirSync(path.join(dir, 'h'));
    for (const name of planted) writeFileSync(path.join(dir, 'd', name), '');
    writeFileSync(path.join(dir, 'c'), command);
    // $(cat) drops trailing newlines, so a sentinel keeps the command byte for byte.
    lines[i % batches].push(
      `c=$(cat "$R/k${i}/c"; printf x); c=\${c%x}`,
      `(cd "$R/k${i}/d" && HOME="$R/k${i}/h" exec timeout -s KILL 20 bash -c "$c") </dev/null >/dev/null 2>&1`,
    );
  });
  await Promise.all(
    lines.map((script, b) => {
      const file = path.join(root, `batch${b}.sh`);
      // Background jobs and process substitutions may still be finishing when their bash exits.
      writeFileSync(file, `${script.join('\n')}\nsleep 0.3\n`);
      return run(file, root);
    }),
  );
  return commands
    .map((_, i) => i)
    .filter((i) => {
      const dir = path.join(root, `k${i}`);
      const left = [
        ...readdirSync(dir).filter((name) => !['c', 'd', 'h'].includes(name)),
        ...readdirSync(path.join(dir, 'd')).filter((name) => !planted.includes(name)),
        ...readdirSync(path.join(dir, 'h')),
      ];
      return left.length > 0;
    });
}

function run(script: string, root: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [script], {
      env: { PATH: process.env.PATH, R: root, GIT_CEILING_DIRECTORIES: root, LC_ALL: 'C' },
      stdio: 'ignore',
    });
    child.on('error', reject);
    child.on('exit', (code) => (code === null ? reject(new Error(`${script} was killed`)) : resolve()));
  });
}
