/** Pixel operations of the gallery editor (spec §2: crop, flip, rotate), each into a new canvas. */

export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

export function createCanvas(width: number, height: number): HTMLCanvasElement {
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.round(width));
  canvas.height = Math.max(1, Math.round(height));
  return canvas;
}

/** Draws `source` into a new canvas of the given size through `transform`. */
function redraw(
  source: CanvasImageSource & { width: number; height: number },
  width: number,
  height: number,
  transform: (ctx: CanvasRenderingContext2D) => void,
): HTMLCanvasElement {
  const out = createCanvas(width, height);
  const ctx = out.getContext('2d');
  if (ctx) {
    transform(ctx);
    ctx.drawImage(source, 0, 0);
  }
  return out;
}

export const copyCanvas = (source: HTMLCanvasElement | HTMLImageElement) =>
  redraw(source, source.width, source.height, () => {});

/** Rotates by 90° clockwise (`1`) or counter-clockwise (`-1`). */
export function rotate(source: HTMLCanvasElement, direction: 1 | -1): HTMLCanvasElement {
  const { width: w, height: h } = source;
  return redraw(source, h, w, (ctx) => {
    if (direction === 1) ctx.translate(h, 0);
    else ctx.translate(0, w);
    ctx.rotate((direction * Math.PI) / 2);
  });
}

export function flip(source: HTMLCanvasElement, axis: 'horizontal' | 'vertical'): HTMLCanvasElement {
  const { width: w, height: h } = source;
  return redraw(source, w, h, (ctx) => {
    if (axis === 'horizontal') {
      ctx.translate(w, 0);
      ctx.scale(-1, 1);
    } else {
      ctx.translate(0, h);
      ctx.scale(1, -1);
    }
  });
}

/** Keeps a rectangle inside a width × height picture, in whole pixels. */
export function clampRect(rect: Rect, width: number, height: number): Rect {
  const x = Math.min(Math.max(0, Math.round(rect.x)), Math.max(0, width - 1));
  const y = Math.min(Math.max(0, Math.round(rect.y)), Math.max(0, height - 1));
  const w = Math.min(Math.max(1, Math.round(rect.w)), width - x);
  const h = Math.min(Math.max(1, Math.round(rect.h)), height - y);
  return { x, y, w, h };
}

export function crop(source: HTMLCanvasElement, rect: Rect): HTMLCanvasElement {
  const r = clampRect(rect, source.width, source.height);
  const out = createCanvas(r.w, r.h);
  out.getContext('2d')?.drawImage(source, r.x, r.y, r.w, r.h, 0, 0, r.w, r.h);
  return out;
}

/** Shows `source` on the visible canvas (its size follows the picture). */
export function paint(target: HTMLCanvasElement, source: HTMLCanvasElement | HTMLImageElement): void {
  target.width = source.width;
  target.height = source.height;
  const ctx = target.getContext('2d');
  if (!ctx) return;
  ctx.clearRect(0, 0, target.width, target.height);
  ctx.drawImage(source, 0, 0);
}

/** The rectangle between two points, normalised. */
export function rectBetween(a: { x: number; y: number }, b: { x: number; y: number }): Rect {
  return { x: Math.min(a.x, b.x), y: Math.min(a.y, b.y), w: Math.abs(a.x - b.x), h: Math.abs(a.y - b.y) };
}
