/** A one-line spinner on a terminal's stderr while the model or a tool works; silent elsewhere. */
export class Spinner {
  private timer: NodeJS.Timeout | undefined;
  private frame = 0;
  private startedAt = 0;
  static readonly FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

  constructor(private readonly stream: NodeJS.WritableStream & { isTTY?: boolean }) {}

  /** `label(elapsedMs)` is asked again on every frame, so it can show elapsed time and tokens. */
  start(label: (elapsedMs: number) => string): void {
    if (!this.stream.isTTY) return;
    this.stop();
    this.startedAt = Date.now();
    const draw = () => {
      const text = label(Date.now() - this.startedAt);
      this.stream.write(`\r\x1b[K${Spinner.FRAMES[this.frame++ % Spinner.FRAMES.length]} ${text}`);
    };
    draw();
    this.timer = setInterval(draw, 100);
    this.timer.unref();
  }

  stop(): void {
    if (!this.timer) return;
    clearInterval(this.timer);
    this.timer = undefined;
    this.stream.write('\r\x1b[K');
  }
}

/** `3.2s`, `1m 05s`: the elapsed time a spinner shows. */
export function formatElapsed(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < 60) return `${(ms / 1000).toFixed(1)}s`;
  return `${Math.floor(seconds / 60)}m ${String(seconds % 60).padStart(2, '0')}s`;
}

/** `1.2k`: a token count in a few characters. */
export function formatTokens(n: number): string {
  return n < 1000 ? String(n) : `${(n / 1000).toFixed(1)}k`;
}
