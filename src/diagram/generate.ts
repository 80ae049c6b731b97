import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderDiagram } from './render.js';

/** Where the committed diagrams live: machines/ at the package root (two levels up in dist too). */
export function diagramPaths(root: string): { mermaid: string; svg: string } {
  return {
    mermaid: path.join(root, 'machines', 'query-engine.mmd'),
    svg: path.join(root, 'machines', 'query-engine.svg'),
  };
}

/** Regenerates machines/query-engine.mmd and .svg from the machine (`npm run diagrams`). */
export async function generateDiagrams(root: string): Promise<string[]> {
  const files = diagramPaths(root);
  writeFileSync(files.mermaid, await renderDiagram('mermaid'));
  writeFileSync(files.svg, await renderDiagram('svg'));
  return [files.mermaid, files.svg];
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  // dist/src/diagram/generate.js -> the package root is three levels up.
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
  const written = await generateDiagrams(root);
  for (const file of written) console.log(`wrote ${path.relative(process.cwd(), file)}`);
}
