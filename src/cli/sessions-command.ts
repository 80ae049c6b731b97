import os from 'node:os';
import path from 'node:path';
import type { Command } from 'commander';
import { listSessions, type SessionSummary } from '../sessions/store.js';
import { parsePositiveInt } from '../run/parse-options.js';
import { xagentHome } from '../sessions/layout.js';

interface SessionsStreams {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

/**
 * Adds `xagent sessions [--json] [--limit n]`: recorded sessions, most recent first.
 * @example registerSessionsCommand(program, { stdout: process.stdout, stderr: process.stderr });
 */
export function registerSessionsCommand(program: Command, streams: SessionsStreams, env: NodeJS.ProcessEnv = process.env): void {
  program
    .command('sessions')
    .description('list recorded sessions, most recent first (continue one with --resume <id>)')
    .option('--json', 'one JSON array on stdout')
    .option('-n, --limit <n>', 'show only the n most recent')
    .action((options: { json?: boolean; limit?: string }) => {
      const home = path.resolve(xagentHome(env));
      const { sessions, warnings } = listSessions(home);
      for (const warning of warnings) streams.stderr.write(`xagent: warning: ${warning}\n`);
      const shown = options.limit ? sessions.slice(0, parsePositiveInt(options.limit, '--limit')) : sessions;
      if (options.json) {
        streams.stdout.write(`${JSON.stringify(shown.map(sessionJson))}\n`);
      } else if (shown.length === 0) {
        streams.stdout.write(`No sessions yet in ${home}/sessions.\n`);
      } else {
        streams.stdout.write(formatSessionsTable(shown));
      }
    });
}

export function sessionJson(session: SessionSummary) {
  const { meta } = session;
  return {
    id: session.id,
    created: meta.created,
    updated: meta.updated,
    workspace: meta.workspace,
    model: meta.model,
    first_prompt: meta.first_prompt,
    turns: meta.turns,
    tasks: meta.tasks,
    last_stop_reason: meta.last_stop_reason,
    usage: meta.usage ?? null,
    total_cost_usd: meta.total_cost_usd ?? null,
    state: session.state,
    derived: session.derived,
  };
}

/** The human table: id, when, workspace, last stop, first prompt. Plain text, one session a line. */
export function formatSessionsTable(sessions: readonly SessionSummary[], home = os.homedir()): string {
  const rows = sessions.map((s) => [
    s.id,
    formatWhen(new Date(s.meta.updated)),
    shorten(tildify(s.meta.workspace ?? '?', home), 40, 'start'),
    lastStop(s),
    shorten(s.meta.first_prompt.replace(/\s+/g, ' ').trim(), 60, 'end'),
  ]);
  const header = ['ID', 'UPDATED', 'WORKSPACE', 'LAST STOP', 'FIRST PROMPT'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  return `${[header, ...rows].map(line).join('\n')}\n`;
}

function lastStop(session: SessionSummary): string {
  if (session.state === 'running') return 'running';
  if (session.state === 'interrupted') return 'died mid-task';
  return session.meta.last_stop_reason ?? '-';
}

function formatWhen(date: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())} ${two(date.getHours())}:${two(date.getMinutes())}`;
}

function tildify(dir: string, home: string): string {
  return home && (dir === home || dir.startsWith(`${home}/`)) ? `~${dir.slice(home.length)}` : dir;
}

function shorten(text: string, max: number, cut: 'start' | 'end'): string {
  if (text.length <= max) return text;
  return cut === 'start' ? `…${text.slice(text.length - max + 1)}` : `${text.slice(0, max - 1)}…`;
}
