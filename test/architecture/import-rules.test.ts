import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { folderImports, importRulesText, readFolderRules, RULES_FILE } from '../../scripts/import-rules.js';

/**
 * Issue 25: the import rules between folders are facts the tests and the linter keep. Each folder's
 * README says who may import it; Biome enforces that (lint/import-rules.json); these tests check the
 * rules file is current, that the READMEs' "Imports:" lines say what the code imports, that no two
 * folders import each other through any chain, and that the linter really rejects a forbidden import.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');

/** The groups of folders that import each other through some chain (Tarjan's strongly connected components). */
function cycles(edges: Map<string, Set<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        group.push(w);
      } while (w !== v);
      if (group.length > 1) found.push(group.sort());
    }
  };
  for (const v of edges.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe('import rules between folders', () => {
  const edges = folderImports(ROOT);

  it('finds an import cycle when there is one (the checker itself)', () => {
    const looped = new Map([
      ['src/a', new Set(['src/b'])],
      ['src/b', new Set(['src/c'])],
      ['src/c', new Set(['src/a'])],
    ]);
    expect(cycles(looped)).toEqual([['src/a', 'src/b', 'src/c']]);
  });

  it('has no import cycle between folders', () => {
    expect(cycles(edges)).toEqual([]);
  });

  it('keeps every folder inside what its README allows, and each README says what its folder imports', () => {
    const rules = readFolderRules(ROOT);
    const byFolder = new Map(rules.map((r) => [r.folder, r]));
    const wrong: string[] = [];
    for (const rule of rules) {
      const actual = [...(edges.get(rule.folder) ?? [])].sort();
      if (actual.join(' ') !== [...rule.imports].sort().join(' '))
        wrong.push(`${rule.folder}/README.md says it imports [${rule.imports.join(', ')}], the code imports [${actual.join(', ')}]`);
      for (const target of actual) {
        const allowed = byFolder.get(target)?.importedBy;
        if (allowed && allowed !== 'any' && !allowed.includes(rule.folder))
          wrong.push(`${rule.folder} imports ${target}, whose README does not allow it`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it(`has ${RULES_FILE} made from the READMEs as they are (run npm run import-rules after changing one)`, () => {
    expect(readFileSync(path.join(ROOT, RULES_FILE), 'utf8')).toBe(importRulesText(ROOT));
  });

  it('fails the linter on an import a README forbids', () => {
    // A copy of the lint configuration and two probe files in a folder of their own, so the real tree is never touched.
    const dir = mkdtempSync(path.join(tmpdir(), 'xagent-import-rules-'));
    try {
      cpSync(path.join(ROOT, 'lint'), path.join(dir, 'lint'), { recursive: true });
      const config = readFileSync(path.join(ROOT, 'biome.jsonc'), 'utf8').replace(
        '"$schema": "./node_modules/',
        `"$schema": "${ROOT}/node_modules/`,
      );
      writeFileSync(path.join(dir, 'biome.jsonc'), config.replace('"vcs": { "enabled": true', '"vcs": { "enabled": false'));
      const probe = (file: string, source: string) => {
        mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
        writeFileSync(path.join(dir, file), source);
      };
      // The sessions on disk may not reach up into the command line; the command line may use sessions.
      probe('src/sessions/probe.ts', "import { main } from '../cli/main.js';\nexport const probe = main;\n");
      probe('src/cli/probe.ts', "import { readMeta } from '../sessions/meta.js';\nexport const probe = readMeta;\n");
      const result = spawnSync(path.join(ROOT, 'node_modules/.bin/biome'), ['lint', '--max-diagnostics=50', 'src'], {
        cwd: dir,
        encoding: 'utf8',
      });
      const output = result.stdout + result.stderr;
      expect(result.status).not.toBe(0);
      expect(output).toContain('src/sessions/ may not import src/cli/');
      expect(output).not.toContain('src/cli/ may not import');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
