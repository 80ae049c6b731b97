/** A picture's size in pixels: a slide (1920x1080), a laptop (1280x800). */
export interface Size {
  width: number;
  height: number;
}

export const SLIDE: Size = { width: 1920, height: 1080 };

/** `1920x1080` -> `{ width: 1920, height: 1080 }`; undefined for anything else. */
export function parseSize(text: string): Size | undefined {
  const match = /^(\d{2,5})x(\d{2,5})$/.exec(text.trim());
  return match ? { width: Number(match[1]), height: Number(match[2]) } : undefined;
}
