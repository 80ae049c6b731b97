import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The modules `node dist/src/cli/main.js` loads before it runs anything: its static imports,
 * followed through the built files. Dynamic `import()` is left out, on purpose: that is how the
 * interactive UI, the diagram code and the inspector's extras stay out of `-p` start-up.
 */
function staticGraph(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    const source = readFileSync(file, 'utf8');
    for (const match of source.matchAll(/^\s*(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|^\s*import\s*['"]([^'"]+)['"]/gm)) {
      const specifier = match[1] ?? match[2]!;
      if (specifier.startsWith('.')) visit(path.resolve(path.dirname(file), specifier));
      else if (!specifier.startsWith('node:'))
        packages.add(specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]!);
    }
  };
  visit(entry);
  return { files, packages };
}

describe('start-up of xagent -p', () => {
  it('never loads the terminal UI: no ink, react or markdown renderer among the static imports', () => {
    // The tsc output, module by module (the bundle's own check is in bundle.test.ts).
    const { files, packages } = staticGraph(path.resolve('dist/src/cli/main.js'));
    expect([...files].filter((file) => file.includes(`${path.sep}tui${path.sep}`))).toEqual([]);
    for (const heavy of ['ink', 'react', 'marked', 'marked-terminal']) expect(packages).not.toContain(heavy);
    // Nor the MCP client: --version, --help, diagram and paths never load it (only a run with servers, or `mcp list`).
    expect([...files].filter((file) => file.includes(`${path.sep}mcp${path.sep}`) || file.endsWith('mcp-list.js'))).toEqual([]);
    expect(packages).not.toContain('@modelcontextprotocol/sdk');
    // The graph is real: the CLI framework is in it.
    expect(packages).toContain('commander');
  });
});
