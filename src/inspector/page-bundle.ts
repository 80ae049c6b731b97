import { readFileSync } from 'node:fs';
import path from 'node:path';
import { XagentError } from '../errors/xagent-error.js';

/**
 * The inspector page as one string: its stylesheet and its ES modules inlined, so a single file
 * opens from disk (`file://` cannot load one module from another). The page's modules follow one
 * habit this relies on: relative `import { a, b } from './x.js'` and `export function|const|class`.
 * Each module becomes a function scope that returns its exports, in dependency order.
 */

const IMPORT = /^import\s*\{([^}]*)\}\s*from\s*'\.\/([a-z0-9-]+\.js)';?\s*$/gm;
const EXPORT_DECL = /^export\s+((?:async\s+)?function\*?|const|let|class)\s+([A-Za-z_$][\w$]*)/gm;

export class PageBundleError extends XagentError {
  override readonly name = 'PageBundleError';
  override readonly fault = 'internal';
}

interface Module {
  name: string;
  code: string;
  exports: string[];
  imports: Array<{ from: string; names: string }>;
}

function readModule(dir: string, name: string): Module {
  const source = readFileSync(path.join(dir, name), 'utf8');
  const imports = [...source.matchAll(IMPORT)].map((m) => ({ from: m[2]!, names: m[1]! }));
  const exports = [...source.matchAll(EXPORT_DECL)].map((m) => m[2]!);
  const code = source.replace(IMPORT, '').replace(EXPORT_DECL, (_all, kind: string, id: string) => `${kind} ${id}`);
  if (/^\s*(import|export)\b/m.test(code))
    throw new PageBundleError(`inspector/${name}: an import or export the bundler does not understand`);
  return { name, code, exports, imports };
}

const scopeName = (file: string) => `__module_${file.replace(/\W/g, '_')}`;

/** `a, b as c` -> `a, b: c` (destructuring from the module's scope). */
const destructure = (names: string) =>
  names
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean)
    .map((n) => n.replace(/^(\w+)\s+as\s+(\w+)$/, '$1: $2'))
    .join(', ');

/** The entry module and everything it imports, as one classic-free module script body. */
export function bundleModules(dir: string, entry: string): string {
  const ordered: Module[] = [];
  const seen = new Set<string>();
  const visit = (name: string, chain: string[]) => {
    if (chain.includes(name)) throw new PageBundleError(`inspector/: import cycle ${[...chain, name].join(' -> ')}`);
    if (seen.has(name)) return;
    const module = readModule(dir, name);
    for (const dep of module.imports) visit(dep.from, [...chain, name]);
    seen.add(name);
    ordered.push(module);
  };
  visit(entry, []);
  return ordered
    .map((m) => {
      const imports = m.imports.map((i) => `const { ${destructure(i.names)} } = ${scopeName(i.from)};`).join('\n');
      return `const ${scopeName(m.name)} = (() => {\n${imports}\n${m.code}\nreturn { ${m.exports.join(', ')} };\n})();`;
    })
    .join('\n');
}

/** Keeps a `</script>` or `</style>` inside inlined text from ending its element early. */
const inlineSafe = (text: string, tag: 'script' | 'style') => text.replaceAll(`</${tag}`, `<\\/${tag}`);

/**
 * The page with its CSS and JS inline and `data` (any JSON) in a `<script type="application/json"
 * id="xagent-run">`, which the page reads instead of asking a server.
 * @example writeFileSync('run.html', standalonePage(inspectorPageDir(), { chart, records }));
 */
export function standalonePage(dir: string, data: unknown): string {
  let html = readFileSync(path.join(dir, 'index.html'), 'utf8');
  const css = readFileSync(path.join(dir, 'style.css'), 'utf8');
  const link = /<link rel="stylesheet" href="style\.css">/;
  const script = /<script type="module" src="app\.js"><\/script>/;
  if (!link.test(html) || !script.test(html))
    throw new PageBundleError('inspector/index.html: the stylesheet link or the app.js script tag is missing');
  // JSON is valid JavaScript only up to U+2028/9 and `<`; escaping `<` keeps `</script>` out.
  const json = JSON.stringify(data).replaceAll('<', '\\u003c').replaceAll('\u2028', '\\u2028').replaceAll('\u2029', '\\u2029');
  html = html
    .replace(link, () => `<style>\n${inlineSafe(css, 'style')}\n</style>`)
    .replace(
      script,
      () =>
        `<script type="application/json" id="xagent-run">${json}</script>\n<script type="module">\n${inlineSafe(bundleModules(dir, 'app.js'), 'script')}\n</script>`,
    );
  return html;
}
