/** ANSI styling that switches itself off for NO_COLOR and for output that is not a terminal. */
export interface Style {
  dim(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  bold(text: string): string;
}

export function createStyle(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): Style {
  const on = stream.isTTY === true && env.NO_COLOR === undefined && env.TERM !== 'dumb';
  const wrap = (open: number, close: number) => (text: string) => (on ? `\x1b[${open}m${text}\x1b[${close}m` : text);
  return { dim: wrap(2, 22), red: wrap(31, 39), green: wrap(32, 39), yellow: wrap(33, 39), bold: wrap(1, 22) };
}
