import { spawn } from 'node:child_process';
import path from 'node:path';
import { MAX_COLLECTED_CHARS, type GrepEngine, type GrepMatch, type GrepOutcome } from './grep-engine.js';

/**
 * Builds the grep engine that runs ripgrep at `rgPath`, with flags chosen so that it behaves like
 * the JavaScript engine: no ignore files, hidden files included, no config file, no symlinks.
 * @example const engine = ripgrepEngine('/usr/bin/rg'); await engine(query);
 */
export function ripgrepEngine(rgPath: string): GrepEngine {
  return (query) =>
    new Promise<GrepOutcome>((resolve, reject) => {
      const args = ['--no-config', '--no-ignore', '--hidden', '--no-heading', '--with-filename', '--line-number'];
      args.push('--null', '--color', 'never');
      if (query.ignoreCase) args.push('--ignore-case');
      if (!query.file) {
        if (query.glob !== undefined) args.push('--glob', query.glob);
        for (const dir of query.skipDirs) args.push('--glob', `!${dir}`);
      }
      args.push('--regexp', query.pattern, '--', query.file ? path.basename(query.root) : '.');
      const env = { ...process.env };
      delete env.RIPGREP_CONFIG_PATH;
      const child = spawn(rgPath, args, {
        cwd: query.file ? path.dirname(query.root) : query.root,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
        signal: query.signal,
      });
      const chunks: Buffer[] = [];
      let size = 0;
      let truncated = false;
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => {
        if (truncated) return;
        chunks.push(chunk);
        size += chunk.length;
        if (size > MAX_COLLECTED_CHARS) {
          truncated = true;
          child.kill('SIGTERM');
        }
      });
      child.stderr.on('data', (chunk: Buffer) => {
        if (stderr.length < 10_000) stderr += chunk.toString('utf8');
      });
      child.on('error', reject);
      child.on('close', (code) => {
        const matches = parse(Buffer.concat(chunks).toString('utf8'));
        // Exit 2 with nothing found means rg refused the query (a bad regex, usually).
        if (code === 2 && matches.length === 0 && !truncated) {
          resolve({ kind: 'invalid-pattern', message: stderr.trim() || 'ripgrep failed' });
          return;
        }
        resolve({ kind: 'matches', matches, truncated });
      });
    });
}

/** Parses `path\0line:text` lines; a cut-off last line is dropped. */
function parse(stdout: string): GrepMatch[] {
  const lines = stdout.split('\n');
  // The text after the last newline is either empty or (when cut off) a partial line.
  lines.pop();
  const matches: GrepMatch[] = [];
  for (const line of lines) {
    const nul = line.indexOf('\0');
    const colon = line.indexOf(':', nul + 1);
    if (nul === -1 || colon === -1) continue;
    const file = line.slice(0, nul);
    matches.push({
      path: file.startsWith('./') ? file.slice(2) : file,
      line: Number(line.slice(nul + 1, colon)),
      text: line.slice(colon + 1),
    });
  }
  return matches;
}
