import type { ToolResult } from '../../machines/types.js';

/** The most characters any one tool result may carry into the conversation. */
export const MAX_RESULT_CHARS = 30_000;

/**
 * Cuts `text` to at most `max` characters (notice included) and says so, with a hint on how to
 * get the rest. Text under the cap comes back unchanged.
 * @example capText(hugeLog, { hint: 'Use read_file with offset to read further.' })
 */
export function capText(text: string, options: { max?: number; hint?: string } = {}): string {
  const max = options.max ?? MAX_RESULT_CHARS;
  if (text.length <= max) return text;
  const notice = (shown: number) =>
    `\n[output truncated: showing the first ${shown} of ${text.length} characters.${options.hint ? ` ${options.hint}` : ''}]`;
  const shown = Math.max(0, max - notice(max).length);
  return text.slice(0, shown) + notice(shown);
}

/** The last line of defence: applied by the registry to every result, whatever the tool. */
export function capResult(result: ToolResult, max = MAX_RESULT_CHARS): ToolResult {
  if (result.content.length <= max) return result;
  return { ...result, content: capText(result.content, { max }) };
}

/**
 * Collects a stream of text keeping only its head and tail, because a command's first lines say
 * what it did and its last lines say how it ended. Memory stays bounded however much arrives.
 * @example const out = new HeadTailBuffer(15_000); child.stdout.on('data', (d) => out.push(String(d)));
 */
export class HeadTailBuffer {
  private head = '';
  private tail = '';
  private dropped = 0;

  constructor(private readonly half: number) {}

  push(chunk: string): void {
    if (this.head.length < this.half) {
      const room = this.half - this.head.length;
      this.head += chunk.slice(0, room);
      chunk = chunk.slice(room);
    }
    if (chunk.length === 0) return;
    this.tail += chunk;
    if (this.tail.length > this.half) {
      this.dropped += this.tail.length - this.half;
      this.tail = this.tail.slice(this.tail.length - this.half);
    }
  }

  /** Everything kept, with a notice where the middle was dropped. */
  text(): string {
    if (this.dropped === 0) return this.head + this.tail;
    return `${this.head}\n[... ${this.dropped} characters of output omitted ...]\n${this.tail}`;
  }
}
