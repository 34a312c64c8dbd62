import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { INestApplicationContext } from '@nestjs/common';
import { vi } from 'vitest';
import { PdfRenderer } from '../modules/pdf/pdf-renderer.service.js';

/**
 * Reading printed PDFs back with tools independent of Chromium (poppler's pdftotext and pdftoppm,
 * zbar's zbarimg), and a renderer that fails on purpose: what the PDF specs share.
 */

const run = promisify(execFile);

/** The PDF written to a file in a temporary folder of its own, for `fn`; the folder is removed after. */
export async function withPdfFile<T>(pdf: Buffer, fn: (file: string, dir: string) => Promise<T>): Promise<T> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'pdf-spec-'));
  try {
    const file = path.join(dir, 'badges.pdf');
    await fs.writeFile(file, pdf);
    return await fn(file, dir);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/** The text of each page (poppler's pdftotext). */
export const pdfText = (pdf: Buffer) =>
  withPdfFile(pdf, async (file) => (await run('pdftotext', ['-layout', file, '-'])).stdout.split('\f'));

/** The QR codes of each page: rasterised by pdftoppm, decoded by zbarimg. */
export const pdfPageCodes = (pdf: Buffer) =>
  withPdfFile(pdf, async (file, dir) => {
    await run('pdftoppm', ['-r', '200', '-png', file, path.join(dir, 'page')]);
    const pages = (await fs.readdir(dir)).filter((f) => f.endsWith('.png')).sort();
    const codes: string[] = [];
    for (const page of pages) {
      const { stdout } = await run('zbarimg', [
        '--quiet',
        '--raw',
        '-Sdisable',
        '-Sqrcode.enable',
        path.join(dir, page),
      ]);
      codes.push(stdout.trim());
    }
    return codes;
  });

/**
 * The app's renderer succeeds `n` times, then fails on every call (a Chromium that keeps crashing
 * on a chunk); `mockRestore()` the answer to heal it.
 */
export function rendererFailingAfter(app: INestApplicationContext, n: number) {
  const renderer = app.get(PdfRenderer);
  const render = renderer.render.bind(renderer);
  let calls = 0;
  return vi.spyOn(renderer, 'render').mockImplementation(async (pages, options) => {
    if (++calls > n) throw new Error('Chromium crashed on this chunk');
    return render(pages, options);
  });
}
