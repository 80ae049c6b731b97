/**
 * What a read tool asks before it shows a file it found (grep's matches, glob's paths): whether
 * the permission rules would let `read_file` of that path run. The engine provides it from the
 * same policy that decided the call; read tools never decide permissions themselves.
 * Returns null when the file may be shown, else why not.
 * @example const gate: ReadGate = (p) => (p === '.env' ? { behavior: 'deny', reason: 'deny rule "Read(.env)"' } : null);
 */
export type ReadGate = (relative: string) => { behavior: 'deny' | 'ask'; reason: string } | null;

/**
 * Splits `paths` into the ones a read tool may show and a note naming the ones it withheld (after
 * `what`, e.g. `matches in `), by rule, so the model knows what it did not see and that read_file asks where a rule asks.
 * @example withhold(['a.ts', '.env'], gate, 'matches in ') // { shown: ['a.ts'], note: '[Not shown: matches in .env (...)]' }
 */
export function withhold(paths: readonly string[], gate: ReadGate | undefined, what: string): { shown: Set<string>; note: string } {
  if (!gate) return { shown: new Set(paths), note: '' };
  const shown = new Set<string>();
  const denied = new Map<string, string[]>();
  const asked = new Map<string, string[]>();
  for (const file of new Set(paths)) {
    const verdict = gate(file);
    if (!verdict) shown.add(file);
    else {
      const into = verdict.behavior === 'deny' ? denied : asked;
      into.set(verdict.reason, [...(into.get(verdict.reason) ?? []), file]);
    }
  }
  const lines: string[] = [];
  for (const [reason, files] of denied) lines.push(`[Not shown: ${what}${list(files)}, which ${reason} keeps from being read.]`);
  for (const [reason, files] of asked)
    lines.push(`[Not shown: ${what}${list(files)}, which need permission to read (${reason}); read_file asks for it.]`);
  return { shown, note: lines.join('\n') };
}

const list = (files: readonly string[]) =>
  files.length > 10 ? `${files.slice(0, 10).join(', ')} and ${files.length - 10} more` : files.join(', ');
