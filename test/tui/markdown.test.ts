import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../src/tui/markdown.js';

describe('markdown in the terminal UI', () => {
  it('renders inline code, bold and italic inside list items, not their raw markers (marked-terminal left them raw)', () => {
    const shown = renderMarkdown('- run `npm test` and **read** the *first* failure\n- then fix it', 80);
    expect(shown).toContain('npm test');
    expect(shown).toContain('read');
    expect(shown).not.toContain('`');
    expect(shown).not.toContain('**');
    expect(shown).not.toMatch(/\*first\*/);
  });
});
