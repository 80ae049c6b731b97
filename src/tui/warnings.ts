import { format } from 'node:util';
import type { TuiStore } from './store.js';

/**
 * Routes warnings into the transcript while the terminal UI runs: Node's process warnings (a
 * DeprecationWarning goes straight to stderr, in the middle of Ink's frame) and console.warn /
 * console.error (the SDK's "model is deprecated" notice) become one dim log line above the input.
 * Returns what puts everything back.
 */
export function captureWarnings(store: TuiStore): () => void {
  const previous = process.listeners('warning');
  const onWarning = (warning: Error) => store.note(`⚠ ${warning.name}: ${warning.message}`, 'warn');
  // Node's own listener prints to stderr; ours replaces it for as long as the UI owns the screen.
  process.removeAllListeners('warning');
  process.on('warning', onWarning);
  const { warn, error } = console;
  const toNote = (...args: unknown[]) => {
    const text = format(...args).trim();
    if (text) store.note(`⚠ ${text}`, 'warn');
  };
  console.warn = toNote;
  console.error = toNote;
  return () => {
    process.off('warning', onWarning);
    for (const listener of previous) process.on('warning', listener);
    console.warn = warn;
    console.error = error;
  };
}
