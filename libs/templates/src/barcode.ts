import { code128, type DrawingContext, drawingSVG, qrcode } from 'bwip-js/generic';
import { TemplateError } from './errors.js';
import { escapeHtml } from './escape.js';

export type BarcodeType = 'qrcode' | 'code128';
export const BARCODE_TYPES: readonly BarcodeType[] = ['qrcode', 'code128'];

/**
 * The person's code as an SVG image (the `bc` placeholder). bwip-js's platform-independent build
 * draws it as SVG text, the same in Node (print, mail, preview) and in the browser; the image is
 * vector, so it stays sharp at any print size. A white background and a quiet zone around the
 * symbol (4 modules for QR, 10 for Code 128) are part of the image: without them scanners read
 * nothing off a coloured badge. The default width (a presentation attribute, which any CSS of the
 * template overrides, e.g. `.bc { width: 40mm }`) keeps it a sensible size on a badge.
 */
export function barcodeSvg(text: string, type: BarcodeType = 'qrcode'): string {
  let svg: string;
  try {
    const drawing: DrawingContext<string> = drawingSVG();
    svg =
      type === 'code128'
        ? code128(
            {
              bcid: 'code128',
              text,
              scale: 1,
              height: 12,
              padding: 10,
              includetext: true,
              textxalign: 'center',
              backgroundcolor: 'FFFFFF',
            },
            drawing,
          )
        : qrcode({ bcid: 'qrcode', text, scale: 1, padding: 8, backgroundcolor: 'FFFFFF' }, drawing);
  } catch (error) {
    throw new TemplateError(`The code "${text}" cannot be drawn as ${type}: ${(error as Error).message}`, null);
  }
  const width = type === 'code128' ? '50mm' : '30mm';
  return svg
    .trim()
    .replace(
      /^<svg /,
      `<svg class="bc bc-${type}" width="${width}" role="img" aria-label="${escapeHtml(text)}" preserveAspectRatio="xMidYMid meet" `,
    );
}
