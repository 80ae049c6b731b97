import { plainWord, slice } from './bash-words.js';
import { field, offsets, text, type ShNode } from './shell-syntax.js';

/**
 * What a redirection does. Every operator is taken as a write unless it is one of the few that
 * only read or duplicate a descriptor, so an operator the reader does not recognise (or one
 * written oddly) is a write, never a harmless word.
 */

/** Operators that open nothing for writing. */
const INPUT_OPS = new Set(['<', '<<', '<<-', '<<<', '<&']);
/** Targets that are not files a write could change. */
const NOT_FILES = new Set(['/dev/null', '/dev/stdout', '/dev/stderr']);

export interface Redirection {
  /** `2>&1`, `> out.log`: the operator and its target, a space between unless the target is a descriptor. */
  text: string;
  /** The file it opens for writing (quotes removed), or null when it writes no file. */
  writes: string | null;
  /** A heredoc or here-string. */
  heredoc: boolean;
  /** The descriptor is named (`{fd}>x`), which assigns a variable. */
  namedDescriptor: boolean;
}

/** @example readRedirect(node, src) // { text: '>> out.log', writes: 'out.log', heredoc: false, namedDescriptor: false } */
export function readRedirect(redir: ShNode, src: Buffer): Redirection {
  const op = operator(redir, src);
  const fdNode = field(redir, 'N');
  const word = field(redir, 'Word');
  const target = word ? slice(src, word) : '';
  const plain = word ? plainWord(word, src) : '';
  const fd = fdNode ? text(fdNode, 'Value') : '';
  const toDescriptor = (op === '>&' || op === '<&') && /^(\d+-?|-)$/.test(plain);
  const writes = INPUT_OPS.has(op) || toDescriptor || NOT_FILES.has(plain) ? null : plain;
  return {
    text: `${fd}${op}${toDescriptor ? '' : ' '}${target}`,
    writes,
    heredoc: Boolean(field(redir, 'Hdoc')) || op.startsWith('<<'),
    namedDescriptor: fd !== '' && !/^\d+$/.test(fd),
  };
}

/** The operator as written, with any line continuation or blank inside it dropped. */
function operator(redir: ShNode, src: Buffer): string {
  const fd = field(redir, 'N');
  const word = field(redir, 'Word');
  const start = fd ? offsets(fd)[1] : offsets(redir)[0];
  const end = word ? offsets(word)[0] : offsets(redir)[1];
  return src.subarray(start, end).toString('utf8').replace(/\\\n/g, '').replace(/\s+/g, '');
}
