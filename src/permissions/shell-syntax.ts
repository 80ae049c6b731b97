import { createRequire } from 'node:module';

/**
 * mvdan/sh's bash parser (the one shfmt uses), compiled to JavaScript as the `mvdan-sh`
 * package. It is synchronous, which the pure permission check needs, and it is loaded on first
 * use only: a run whose rules never match a bash pattern never pays for it.
 *
 * The package's wrapped API rebuilds a wrapper on every field access (about 0.1 ms each), so the
 * reader walks the parser's own objects instead: each node's constructor names its Go type
 * (`*syntax.CallExpr`), slices are `{$array, $offset, $length}`, and a nil pointer is its type's
 * `nil` object. The version is pinned, so this layout does not move under us.
 */

/** A syntax node of mvdan/sh as the compiled Go code holds it. */
export interface ShNode {
  readonly constructor: { readonly string?: string; readonly nil?: unknown };
  Pos(): { Offset(): number };
  End(): { Offset(): number };
  readonly [field: string]: unknown;
}

interface GoSlice {
  $array: unknown[];
  $offset: number;
  $length: number;
}

interface Parser {
  Parse(src: string, name: string): { __internal_object__: ShNode };
}

interface MvdanSyntax {
  NewParser(...options: unknown[]): Parser;
  KeepComments(keep: boolean): unknown;
}

let parser: Parser | undefined;

/** Parses a bash command; throws the parser's error when it is not valid bash. */
export function parseShell(src: string): ShNode {
  if (!parser) {
    const { syntax } = createRequire(import.meta.url)('mvdan-sh') as { syntax: MvdanSyntax };
    // Comments are kept so the reader can check that the parser put them where bash does.
    parser = syntax.NewParser(syntax.KeepComments(true));
  }
  return parser.Parse(src, '').__internal_object__;
}

/** `CallExpr`, `Stmt`, `ParamExp`...; '' for what is not a syntax node. */
export function nodeType(value: unknown): string {
  if (!isNode(value)) return '';
  return value.constructor.string?.replace(/^\*syntax\./, '') ?? '';
}

function isNode(value: unknown): value is ShNode {
  if (typeof value !== 'object' || value === null) return false;
  const ctor = (value as ShNode).constructor;
  return typeof ctor?.string === 'string' && ctor.string.startsWith('*syntax.') && ctor.string !== '*syntax.Pos' && value !== ctor.nil;
}

/** A node-valued field, or null when it is nil or absent. */
export function field(node: ShNode, name: string): ShNode | null {
  const value = node[name];
  return isNode(value) ? value : null;
}

/** A slice-of-nodes field as an array. */
export function list(node: ShNode, name: string): ShNode[] {
  return sliceItems(node[name]).filter(isNode);
}

/** A string field; Go strings arrive as one character per byte, so they are decoded as UTF-8. */
export function text(node: ShNode, name: string): string {
  const value = node[name];
  if (typeof value !== 'string') return '';
  return /[^\x00-\x7f]/.test(value) ? Buffer.from(value, 'latin1').toString('utf8') : value;
}

function sliceItems(value: unknown): unknown[] {
  if (typeof value !== 'object' || value === null || !Array.isArray((value as GoSlice).$array)) return [];
  const slice = value as GoSlice;
  return slice.$array.slice(slice.$offset, slice.$offset + slice.$length);
}

/** Every syntax node directly below this one, whatever its type: unknown constructs are still searched. */
export function children(node: ShNode): ShNode[] {
  const out: ShNode[] = [];
  for (const key of Object.keys(node)) {
    if (key === '$val' || key === 'Comments') continue;
    const value = node[key];
    if (isNode(value)) out.push(value);
    else out.push(...sliceItems(value).filter(isNode));
  }
  return out;
}

/** The byte offset of every comment's `#`, wherever the parser attached it. */
export function commentOffsets(root: ShNode): number[] {
  const found: number[] = [];
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    const items = sliceItems(value);
    if (items.length > 0) {
      stack.push(...items);
      continue;
    }
    const ctor = (value as ShNode | null)?.constructor?.string;
    if (typeof ctor !== 'string' || !ctor.includes('syntax.')) continue;
    if (ctor.endsWith('syntax.Comment')) {
      // A nil comment pointer is its type's empty object, without a position.
      const hash = (value as { Hash?: { Offset?: () => number } }).Hash;
      if (typeof hash?.Offset === 'function') found.push(hash.Offset());
      continue;
    }
    for (const key of Object.keys(value as object)) if (key !== '$val') stack.push((value as ShNode)[key]);
  }
  return found.sort((a, b) => a - b);
}

export function offsets(node: ShNode): [number, number] {
  return [node.Pos().Offset(), node.End().Offset()];
}
