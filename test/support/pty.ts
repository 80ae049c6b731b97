import { spawn } from 'node:child_process';
import { onPath } from './system-packages.js';

/** util-linux `script` gives the child a real pseudo-terminal, so isTTY, raw mode and Ctrl-C are real. */
export const HAVE_SCRIPT = onPath('script') !== undefined;

export interface PtySession {
  /** Everything the terminal showed so far, escape sequences removed. */
  screen(): string;
  type(text: string): void;
  /** Resolves when `pattern` appears after `from` characters of the screen. */
  waitFor(pattern: string | RegExp, from?: number): Promise<number>;
  exited: Promise<number | null>;
  /** Ends the terminal: the program under it gets SIGHUP when the pseudo-terminal goes away. */
  kill(): void;
}

export function startInPty(command: string, env: Record<string, string>, cwd: string): PtySession {
  const child = spawn('script', ['-qfec', command, '/dev/null'], { env, cwd, stdio: ['pipe', 'pipe', 'pipe'] });
  let raw = '';
  const waiters: Array<() => void> = [];
  const onData = (chunk: Buffer) => {
    raw += chunk.toString();
    for (const wake of waiters.splice(0)) wake();
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  // eslint-disable-next-line no-control-regex
  const screen = () => raw.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '').replace(/\r/g, '');
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return {
    screen,
    type: (text) => child.stdin.write(text),
    exited,
    kill: () => {
      if (child.exitCode === null) child.kill('SIGKILL');
    },
    waitFor: (pattern, from = 0) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const text = screen().slice(from);
          const index = typeof pattern === 'string' ? text.indexOf(pattern) : text.search(pattern);
          if (index >= 0) return resolve(from + index + 1);
          waiters.push(check);
        };
        void exited.then(() => reject(new Error(`exited before ${String(pattern)} appeared; screen:\n${screen()}`)));
        check();
      }),
  };
}
