import { existsSync } from 'node:fs';
import path from 'node:path';
import { loadProjectInstructions } from './project-instructions.js';

/**
 * The warnings for a run whose project is not trusted: each `@path` import a project instruction
 * file makes outside the project (into ~/.claude or $XAGENT_HOME), which is left out until the
 * person trusts the workspace. Read once when the run is set up, so the person hears it at start.
 * @example importsLeftOut({ workspace: '/repo', home: '~/.xagent', claudeHome: '~/.claude' })
 *   // ['CLAUDE.md imports ~/.claude/settings.json, outside the project: left out until you trust this workspace (--trust)']
 */
export function importsLeftOut(options: { workspace: string; home: string | null; claudeHome: string | null }): string[] {
  const warnings: string[] = [];
  const show = (file: string) => {
    const relative = path.relative(options.workspace, file);
    return relative.startsWith('..') || path.isAbsolute(relative) ? file : relative;
  };
  loadProjectInstructions({
    ...options,
    repoRoot: repositoryRoot(options.workspace),
    outsideImports: false,
    onLeftOut: (file, importedFrom) =>
      warnings.push(
        `${show(importedFrom)} imports ${file}, outside the project: left out until you trust this workspace (--trust, or answer yes when xagent asks)`,
      ),
  });
  return warnings;
}

/** The nearest folder at or above `dir` holding `.git`, as git would find it (without running git). */
function repositoryRoot(dir: string): string | null {
  for (let current = path.resolve(dir); ; current = path.dirname(current)) {
    if (existsSync(path.join(current, '.git'))) return current;
    if (path.dirname(current) === current) return null;
  }
}
