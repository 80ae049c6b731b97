/** The formats of `xagent diagram`; apart from the renderers so the CLI can check a flag cheaply. */
export const DIAGRAM_FORMATS = ['mermaid', 'svg', 'json'] as const;
export type DiagramFormat = (typeof DIAGRAM_FORMATS)[number];
