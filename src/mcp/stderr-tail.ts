/**
 * The last lines a server wrote to stderr: shown in error messages when it fails, never printed
 * while it runs (they would land in the middle of the answer or the terminal UI).
 * @example const tail = new StderrTail(); child.stderr.on('data', (d) => tail.push(d)); tail.text()
 */
export class StderrTail {
  private text_ = '';

  constructor(
    private readonly maxLines = 10,
    private readonly maxChars = 2000,
  ) {}

  push(chunk: Buffer | string): void {
    this.text_ = (this.text_ + String(chunk)).slice(-this.maxChars * 2);
  }

  /** The last lines, joined with " | " so they fit one message line. */
  text(): string {
    const lines = this.text_
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean)
      .slice(-this.maxLines);
    const joined = lines.join(' | ');
    return joined.length <= this.maxChars ? joined : `…${joined.slice(-this.maxChars)}`;
  }
}
