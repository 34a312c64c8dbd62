import bwipjs from 'bwip-js/node';
import { CODE_CID } from './mail-render.js';

/**
 * The person's code as the inline image of a mail (`{{bc}}` in its body, or withAccreditation):
 * the QR code of the engine's `{{bc}}` (same library and symbology, with the same white quiet zone),
 * drawn as PNG because mail clients do not show SVG. Drawn at send time from the code on the
 * queue row, so the queue stores no images.
 */
export async function codeImages(
  code: string,
): Promise<{ filename: string; content: Buffer; contentType: string; cid: string }[]> {
  const content = await bwipjs.toBuffer({
    bcid: 'qrcode',
    text: code,
    scale: 6,
    padding: 8,
    backgroundcolor: 'FFFFFF',
  });
  return [{ filename: `${code}.png`, content, contentType: 'image/png', cid: CODE_CID }];
}
