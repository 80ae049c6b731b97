/**
 * marked-terminal (with its syntax highlighter) takes a while to load, so it loads beside the UI
 * rather than before it; tasks wait for `markdownReady` so every answer is rendered.
 */
let render: ((text: string, width: number) => string) | null = null;

export const markdownReady: Promise<void> = import('./markdown.js').then((module) => {
  render = module.renderMarkdown;
});

/** Markdown rendered for the terminal, or the text as it is while the renderer loads. */
export function markdown(text: string, width: number): string {
  return render ? render(text, width) : text;
}
