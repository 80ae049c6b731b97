/**
 * The import rules between folders: each `src/<folder>/README.md` says who may import it in a line
 * `Imported by: \`src/cli/\`, \`src/run/\`` (or `Imported by: any folder`). This turns those lines
 * into Biome `noRestrictedImports` rules (lint/import-rules.json, which biome.json extends), so a
 * wrong import fails `npm run lint`. `npm run import-rules` writes the file and refreshes each README's
 * `Imports:` line from the code; a test checks both are current.
 * Tests, the bench and scripts may import anything; `machines/` has its own rule in biome.json.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface FolderRules {
  /** `src/<name>` */
  folder: string;
  /** The folders allowed to import this one; `any` for every folder. */
  importedBy: string[] | 'any';
  /** What the README says this folder imports (checked against the code by a test). */
  imports: string[];
}

const FOLDER = /`((?:src\/[a-z-]+|machines))\/`/g;

/** The rules of every folder under src/ that has a README, in folder order. */
export function readFolderRules(root: string): FolderRules[] {
  const src = path.join(root, 'src');
  return readdirSync(src, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => {
      const folder = `src/${entry.name}`;
      let readme = '';
      try {
        readme = readFileSync(path.join(src, entry.name, 'README.md'), 'utf8');
      } catch {}
      const by = /^Imported by: (.*)$/m.exec(readme)?.[1];
      const imports = /^Imports: (.*)$/m.exec(readme)?.[1];
      if (by === undefined || imports === undefined)
        throw new Error(`${folder}/README.md needs the lines "Imported by: …" and "Imports: …" (see scripts/import-rules.ts)`);
      return {
        folder,
        importedBy: by.startsWith('any folder') ? 'any' : [...by.matchAll(FOLDER)].map((m) => m[1]),
        imports: [...imports.matchAll(FOLDER)].map((m) => m[1]),
      };
    });
}

/** For each folder, the folders it may not import: every folder whose README does not name it. */
export function forbiddenImports(rules: FolderRules[]): Map<string, string[]> {
  const forbidden = new Map<string, string[]>();
  for (const importer of rules) {
    const denied = rules
      .filter((target) => target.folder !== importer.folder && target.importedBy !== 'any' && !target.importedBy.includes(importer.folder))
      .map((target) => target.folder);
    forbidden.set(importer.folder, denied);
  }
  return forbidden;
}

/** The Biome configuration that enforces the rules (relative imports from a folder and from one folder below it). */
export function biomeImportRules(rules: FolderRules[]): unknown {
  const overrides = [...forbiddenImports(rules)]
    .filter(([, denied]) => denied.length > 0)
    .map(([folder, denied]) => ({
      includes: [`${folder}/**`],
      linter: {
        rules: {
          style: {
            noRestrictedImports: {
              level: 'error',
              options: {
                patterns: denied.map((target) => {
                  const name = target.slice('src/'.length);
                  return {
                    group: [`../${name}/**`, `../../${name}/**`],
                    message: `${folder}/ may not import ${target}/: its README says who may (Imported by).`,
                  };
                }),
              },
            },
          },
        },
      },
    }));
  return { $schema: '../node_modules/@biomejs/biome/configuration_schema.json', overrides };
}

/** Every relative import between top-level folders (`src/<name>` and `machines`), read from the source. */
export function folderImports(root: string): Map<string, Set<string>> {
  const edges = new Map<string, Set<string>>();
  const folderOf = (file: string) => {
    const parts = path.relative(root, file).split(path.sep);
    return parts[0] === 'src' ? `src/${parts[1]}` : parts[0];
  };
  const scan = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) scan(file);
      else if (/\.tsx?$/.test(entry.name)) {
        for (const match of readFileSync(file, 'utf8').matchAll(/(?:from|import\()\s*['"](\.{1,2}\/[^'"]+)['"]/g)) {
          const from = folderOf(file);
          const to = folderOf(path.resolve(path.dirname(file), match[1]));
          if (from === to) continue;
          if (!edges.has(from)) edges.set(from, new Set());
          edges.get(from)!.add(to);
        }
      }
    }
  };
  scan(path.join(root, 'src'));
  scan(path.join(root, 'machines'));
  return edges;
}

/** Rewrites each README's "Imports:" line to what the code imports now (the rule line is left as written). */
export function updateImportsLines(root: string): void {
  const edges = folderImports(root);
  for (const { folder } of readFolderRules(root)) {
    const file = path.join(root, folder, 'README.md');
    const imports = [...(edges.get(folder) ?? [])].sort();
    const line = `Imports: ${imports.length > 0 ? imports.map((f) => `\`${f}/\``).join(', ') : 'no other folder'}.`;
    writeFileSync(file, readFileSync(file, 'utf8').replace(/^Imports: .*$/m, line));
  }
}

export const RULES_FILE = 'lint/import-rules.json';

export function importRulesText(root: string): string {
  return `${JSON.stringify(biomeImportRules(readFolderRules(root)), null, 2)}\n`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
  updateImportsLines(root);
  writeFileSync(path.join(root, RULES_FILE), importRulesText(root));
  console.log(`wrote ${RULES_FILE} and the READMEs' "Imports:" lines; check the "Imported by:" lines say what you mean`);
}
