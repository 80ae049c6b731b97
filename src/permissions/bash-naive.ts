import type { SimpleCommand } from './bash-command.js';

/**
 * A reading of a command that trusts no parser, for deny and ask rules only: when the reader
 * cannot prove it sees what bash runs (a command that does not parse, a continuation it cannot
 * place), bash may still run a prefix of it, so every list element and line, from every word on,
 * is taken as a command, and every `>`-like operator as a write to the word after it. A pattern
 * rule never allows from this reading; it only lets restrictions err on the side of biting.
 */

/** Every tail of every chunk between separators, as a command of its own. */
export function naiveParts(texts: readonly string[]): SimpleCommand[] {
  const parts: SimpleCommand[] = [];
  for (const text of texts) {
    for (const chunk of text.split(/[;&|\r\n()`{}#]+|\$\(/)) {
      const words = unquote(chunk).split(/\s+/).filter(Boolean);
      // `then touch x`, `! rm x`, `do rm x`: keywords and anything before the command are skipped by trying each start.
      for (let i = 0; i < words.length; i++) {
        const tail = words.slice(i).join(' ');
        parts.push({ text: tail, plain: tail, words: words.slice(i), writesFile: false, evaluates: true });
      }
    }
  }
  return parts;
}

/** The word after every operator that may open a file for writing (`>`, `>>`, `&>`, `>|`, `<>`, `N>`), quotes removed. */
export function naiveWrites(texts: readonly string[]): string[] {
  const writes: string[] = [];
  for (const text of texts) {
    // A CR is a word character to bash: `>\r` writes a file named CR.
    for (const match of text.matchAll(/(<>|>>?[|&]?)[ \t]*([^ \t\n;&|<>()`]+)/g)) {
      const target = unquote(match[2]);
      // `>&2`, `>&-` duplicate or close a descriptor; `> -` and `> 2` are files.
      const descriptor = match[1].endsWith('&') && /^(\d+-?|-)$/.test(target);
      if (target !== '' && !descriptor) writes.push(target);
    }
  }
  return writes;
}

function unquote(text: string): string {
  return text.replace(/\\(.)/gs, '$1').replace(/["']/g, '');
}
