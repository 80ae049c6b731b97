import { marked } from 'marked';
import { markedTerminal } from 'marked-terminal';

/**
 * Markdown for the terminal (headings, emphasis, lists, code blocks with highlighting, tables),
 * through marked and marked-terminal. Loaded only with the interactive UI.
 */
let configured = false;

export function renderMarkdown(text: string, width: number): string {
  if (!configured) {
    // marked-terminal's types lag behind marked's extension type; the object is what marked.use takes.
    marked.use(markedTerminal({ width, reflowText: true, tab: 2, showSectionPrefix: false }) as Parameters<typeof marked.use>[0]);
    // marked-terminal prints a list item's text as it is: `code`, **bold** and *italic* stayed raw.
    // A text token with inline tokens of its own (a list item's) is parsed as inline; others fall back.
    marked.use({
      renderer: {
        text(token) {
          return typeof token === 'object' && 'tokens' in token && token.tokens ? this.parser.parseInline(token.tokens) : false;
        },
      },
    });
    configured = true;
  }
  const rendered = marked.parse(text, { async: false });
  return rendered.replace(/\n+$/, '');
}
