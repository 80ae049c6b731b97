import { afterEach, describe, expect, it } from 'vitest';
import { TuiStore } from '../../src/tui/store.js';
import { captureWarnings } from '../../src/tui/warnings.js';

let restore: (() => void) | undefined;
afterEach(() => restore?.());

describe('warnings while the terminal UI runs', () => {
  it('a process DeprecationWarning and a console.warn become log lines in the transcript, not stderr', async () => {
    const store = new TuiStore({ sessionId: 's', modelId: 'm', permissionMode: 'default', price: { known: true, text: '' } });
    const listenersBefore = process.listenerCount('warning');
    restore = captureWarnings(store);
    process.emitWarning('the old API is going away', 'DeprecationWarning');
    console.warn('The model %s is deprecated', 'claude-old');
    await new Promise((resolve) => setImmediate(resolve));
    const notes = store.get().items.flatMap((item) => (item.kind === 'note' ? [item.text] : []));
    expect(notes).toEqual(['⚠ The model claude-old is deprecated', '⚠ DeprecationWarning: the old API is going away']);
    restore();
    restore = undefined;
    expect(process.listenerCount('warning')).toBe(listenersBefore);
  });
});
