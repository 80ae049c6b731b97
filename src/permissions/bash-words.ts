import { list, nodeType, offsets, text, type ShNode } from './shell-syntax.js';

/** The source text of a node; the parser's offsets count UTF-8 bytes. */
export function slice(src: Buffer, node: ShNode): string {
  const [start, end] = offsets(node);
  return src.subarray(start, end).toString('utf8');
}

/** The word with quotes and escapes removed, as bash would pass it when it holds no expansion. */
export function plainWord(word: ShNode, src: Buffer): string {
  let out = '';
  for (const part of list(word, 'Parts')) {
    const type = nodeType(part);
    if (type === 'Lit') out += text(part, 'Value').replace(/\\\n/g, '').replace(/\\(.)/gs, '$1');
    else if (type === 'SglQuoted') out += text(part, 'Value');
    else if (type === 'DblQuoted') {
      for (const inner of list(part, 'Parts')) {
        out += nodeType(inner) === 'Lit' ? text(inner, 'Value').replace(/\\([$`"\\\n])/g, '$1') : slice(src, inner);
      }
    } else out += slice(src, part);
  }
  return out;
}
