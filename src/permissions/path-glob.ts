import path from 'node:path';

/**
 * Path globs for file-tool rules: `*` (any run inside one segment), `?` (one character inside a
 * segment), `**` as a whole segment (any number of segments, zero included), `\x` (a literal x).
 * Dotfiles get no special treatment, so a deny rule `edit_file(*)` also bites `.bashrc`.
 * A trailing `/` means "and everything inside": `src/` is `src/**`.
 */

/** Where a tool's path input points: workspace-relative when inside, absolute otherwise. */
export type ResolvedPath = { inside: true; relative: string; absolute: string } | { inside: false; absolute: string };

/**
 * Resolves a path input the way the file tools do (relative to the workspace), purely textually.
 * The workspace root itself is the relative path `''`.
 * @example resolveToolPath('./src/a.ts', '/ws') // { inside: true, relative: 'src/a.ts', absolute: '/ws/src/a.ts' }
 */
export function resolveToolPath(input: string, workspace: string): ResolvedPath {
  const absolute = path.resolve(workspace, input);
  const relative = path.relative(path.resolve(workspace), absolute);
  if (relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative)) {
    return { inside: false, absolute };
  }
  return { inside: true, relative: relative.split(path.sep).join('/'), absolute };
}

/**
 * True if a rule's path pattern matches the path. Relative patterns match workspace-relative
 * paths only; an absolute pattern is made relative when it lies in the workspace, else it is
 * matched against the absolute path.
 * @example matchPathPattern('src/**', 'src/a/b.ts', '/ws') // true
 */
export function matchPathPattern(pattern: string, input: string, workspace: string): boolean {
  const target = resolveToolPath(input, workspace);
  if (path.isAbsolute(pattern)) {
    const anchored = resolveToolPath(pattern, workspace);
    if (anchored.inside) return target.inside && globToRegExp(anchored.relative).test(target.relative);
    return globToRegExp(pattern).test(target.absolute);
  }
  return target.inside && globToRegExp(normalizePattern(pattern)).test(target.relative);
}

/** Drops `./` prefixes and doubled slashes; `.` alone is the workspace root (`''`). */
export function normalizePattern(pattern: string): string {
  let p = pattern.replace(/\/{2,}/g, '/');
  while (p.startsWith('./')) p = p.slice(2);
  if (p === '.') return '';
  if (p.endsWith('/')) p = `${p}**`;
  return p;
}

/**
 * Compiles a glob to an anchored regular expression over `/`-separated paths.
 * @example globToRegExp('**\/*.ts').test('a/b.ts') // true
 */
export function globToRegExp(glob: string): RegExp {
  const segments = glob.split('/');
  let source = '';
  segments.forEach((segment, index) => {
    const last = index === segments.length - 1;
    if (segment === '**') {
      if (segments.length === 1) source += '.*';
      else if (last) source = `${source.replace(/\/$/, '')}(?:/.*)?`;
      else source += '(?:[^/]+/)*';
      return;
    }
    source += segmentToRegExp(segment) + (last ? '' : '/');
  });
  // A leading `/` (absolute pattern) leaves an empty first segment, which must stay a slash.
  return new RegExp(`^${source}$`, 's');
}

function segmentToRegExp(segment: string): string {
  let out = '';
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i];
    if (c === '\\' && i + 1 < segment.length) out += escapeRegExp(segment[++i]);
    else if (c === '*') {
      while (segment[i + 1] === '*') i++;
      out += '[^/]*';
    } else if (c === '?') out += '[^/]';
    else out += escapeRegExp(c);
  }
  return out;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** Escapes glob metacharacters so a literal path can be written as a pattern. */
export function escapeGlob(literal: string): string {
  return literal.replace(/[\\*?]/g, '\\$&');
}
