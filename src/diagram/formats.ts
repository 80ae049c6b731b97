/** The formats of `xagent diagram`; apart from the renderers so the CLI can check a flag cheaply. */
export const DIAGRAM_FORMATS = ['mermaid', 'svg', 'json', 'markdown', 'png', 'pdf'] as const;
export type DiagramFormat = (typeof DIAGRAM_FORMATS)[number];

/** The formats that are bytes, not text: never written to a terminal. */
export const BINARY_FORMATS: ReadonlySet<DiagramFormat> = new Set(['png', 'pdf']);
export type TextFormat = Exclude<DiagramFormat, 'png' | 'pdf'>;
