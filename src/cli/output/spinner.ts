/** A one-line spinner on a terminal's stderr while the model thinks; silent elsewhere. */
export class Spinner {
  private timer: NodeJS.Timeout | undefined;
  private frame = 0;
  private static readonly FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

  constructor(private readonly stream: NodeJS.WritableStream & { isTTY?: boolean }, private readonly label = 'thinking') {}

  start(): void {
    if (!this.stream.isTTY || this.timer) return;
    this.timer = setInterval(() => {
      this.stream.write(`\r${Spinner.FRAMES[this.frame++ % Spinner.FRAMES.length]} ${this.label}`);
    }, 80);
    this.timer.unref();
  }

  stop(): void {
    if (!this.timer) return;
    clearInterval(this.timer);
    this.timer = undefined;
    this.stream.write('\r\x1b[K');
  }
}
