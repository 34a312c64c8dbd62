import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { PDFDocument, PDFName, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mergePdfFiles } from './pdf-merge.js';

const run = promisify(execFile);
const MM = 72 / 25.4;

/** A part of `pages` pages of a size in mm, each saying which part and page it is. */
async function part(name: string, pages: number, [w, h]: [number, number], inherited = false): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 0; i < pages; i++) {
    const page = doc.addPage([w * MM, h * MM]);
    page.drawText(`${name} page ${i + 1}`, { x: 20, y: 40, size: 12, font });
  }
  if (inherited) {
    // the page size given by the page tree node, as some producers write it
    doc.catalog.Pages().set(PDFName.of('MediaBox'), doc.context.obj([0, 0, w * MM, h * MM]));
    for (const page of doc.getPages()) page.node.delete(PDFName.of('MediaBox'));
  }
  return doc.save({ useObjectStreams: name === 'B' });
}

describe('mergePdfFiles (the streaming merge of PDF job parts)', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'pdf-merge-'));
  });
  afterAll(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('appends the parts page by page in order, keeps every page size and text, and names the title', async () => {
    const parts = [
      ['A', 2, [105, 148], false],
      ['B', 1, [210, 148], false],
      ['C', 3, [148, 105], true],
    ] as const;
    const files: string[] = [];
    for (const [name, pages, size, inherited] of parts) {
      const file = path.join(dir, `part-${name}.pdf`);
      await fs.writeFile(file, await part(name, pages, [...size], inherited));
      files.push(file);
    }
    const target = path.join(dir, 'merged.pdf');
    const result = await mergePdfFiles(files, target, { title: 'Odznaky – Příliš žluťoučký' });
    const bytes = await fs.readFile(target);
    expect(result).toEqual({ pages: 6, bytes: bytes.length });

    const doc = await PDFDocument.load(bytes);
    expect(doc.getTitle()).toBe('Odznaky – Příliš žluťoučký');
    expect(doc.getPages().map((p) => [Math.round(p.getWidth() / MM), Math.round(p.getHeight() / MM)])).toEqual([
      [105, 148],
      [105, 148],
      [210, 148],
      [148, 105],
      [148, 105],
      [148, 105],
    ]);
    // poppler reads the file as a whole document: every page's text in order, no repair needed
    const { stdout, stderr } = await run('pdftotext', [target, '-']);
    expect(stderr).toBe('');
    expect(
      stdout
        .split('\f')
        .map((t) => t.trim())
        .filter(Boolean),
    ).toEqual(['A page 1', 'A page 2', 'B page 1', 'C page 1', 'C page 2', 'C page 3']);
    const info = await run('pdfinfo', [target]);
    expect(info.stderr).toBe('');
    expect(info.stdout).toMatch(/Pages:\s+6/);
  });

  it('merges a single part into a valid file', async () => {
    const file = path.join(dir, 'one.pdf');
    await fs.writeFile(file, await part('One', 1, [105, 148]));
    const target = path.join(dir, 'one-merged.pdf');
    expect((await mergePdfFiles([file], target)).pages).toBe(1);
    expect((await PDFDocument.load(await fs.readFile(target))).getPageCount()).toBe(1);
  });
});
