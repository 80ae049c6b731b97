import type { ChoiceRequest, TuiStore } from './store.js';

/**
 * Puts a question in the choice dialog (in place of the input); resolves with the answer's index,
 * or null for Esc. /rewind and /resume ask this way.
 * @example const index = await askChoice(store, { title: ['Which one?'], options: ['a', 'b'] });
 */
export function askChoice(store: TuiStore, question: Omit<ChoiceRequest, 'pick'>): Promise<number | null> {
  return new Promise((resolve) =>
    store.update({
      choice: {
        ...question,
        pick: (index) => {
          store.update({ choice: null });
          resolve(index);
        },
      },
    }),
  );
}
