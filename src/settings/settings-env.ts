import { SettingsError } from './settings-error.js';
import { isObject } from './settings-read.js';

/**
 * A settings file's `env` (Claude Code's key): variables for what a run starts (bash commands,
 * hooks, stdio MCP servers), not for xagent itself. Values are taken as written, no `$VAR`
 * expansion, as in Claude Code. A name a process environment cannot hold (`A=B`, empty) is never
 * passed on.
 */

/** What a process environment can carry: no `=`, no NUL, not empty. */
const NAME = /^[^=\0]+$/;

/**
 * The `env` value of one file, checked: xagent's own files refuse a bad entry; Claude Code's skip
 * it with a warning (Claude Code itself reads the rest). Numbers and booleans become strings.
 * @example parseEnvSection({ NODE_ENV: 'test', RETRIES: 3 }, '/ws/.claude/settings.json', true) // { vars: { NODE_ENV: 'test', RETRIES: '3' }, warnings: [] }
 * @throws SettingsError for a bad entry in xagent's own files, or an `env` that is no object
 */
export function parseEnvSection(value: unknown, file: string, claude: boolean): { vars: Record<string, string>; warnings: string[] } {
  if (!isObject(value)) throw new SettingsError(file, '"env" must be an object of variable name to string value');
  // A Map, then fromEntries: a variable named __proto__ stays a variable.
  const vars = new Map<string, string>();
  const warnings: string[] = [];
  for (const [name, raw] of Object.entries(value)) {
    let problem: string | undefined;
    if (!NAME.test(name)) problem = 'a variable name cannot be empty or hold "=" or NUL';
    else if (typeof raw === 'number' || typeof raw === 'boolean') vars.set(name, String(raw));
    else if (typeof raw !== 'string') problem = `the value must be a string, got ${JSON.stringify(raw)}`;
    else if (raw.includes('\0')) problem = 'the value holds a NUL character';
    else vars.set(name, raw);
    if (problem === undefined) continue;
    if (!claude) throw new SettingsError(file, `env.${name}: ${problem}`);
    warnings.push(`env.${JSON.stringify(name)} skipped: ${problem}`);
  }
  return { vars: Object.fromEntries(vars), warnings };
}

/** One file's variables, in the loader's list (highest precedence first). */
export interface EnvLayer {
  source: string;
  vars: Readonly<Record<string, string>>;
}

/**
 * The variables of every file, merged name by name: the most specific file that sets a name wins
 * (local, then project, then user; xagent's file above Claude Code's of the same scope).
 * @example mergeEnvLayers([{ source: local, vars: { A: '1' } }, { source: user, vars: { A: '2', B: '3' } }]) // { A: '1', B: '3' }
 */
export function mergeEnvLayers(layers: readonly EnvLayer[]): Record<string, string> {
  const merged = new Map<string, string>();
  for (const layer of layers) for (const [name, value] of Object.entries(layer.vars)) if (!merged.has(name)) merged.set(name, value);
  return Object.fromEntries(merged);
}
