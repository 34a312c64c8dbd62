import fsp from 'node:fs/promises';
import {
  PDFContext,
  PDFDocument,
  PDFHexString,
  PDFName,
  type PDFObject,
  PDFObjectCopier,
  type PDFPageLeaf,
  PDFRef,
} from 'pdf-lib';

/** `%PDF-1.7` and the binary comment that tells transfer tools the file is binary. */
const HEADER = Buffer.concat([Buffer.from('%PDF-1.7\n%'), Buffer.from([0xe2, 0xe3, 0xcf, 0xd3]), Buffer.from('\n\n')]);
/** The merged file's own objects: the catalog, the one page tree node and the document info. */
const CATALOG = 1;
const PAGES = 2;
const INFO = 3;

export interface MergeResult {
  pages: number;
  bytes: number;
}

function indirect(objectNumber: number, body: Uint8Array | string): Buffer {
  return Buffer.concat([
    Buffer.from(`${objectNumber} 0 obj\n`),
    typeof body === 'string' ? Buffer.from(body, 'latin1') : body,
    Buffer.from('\nendobj\n'),
  ]);
}

function serialize(object: PDFObject): Uint8Array {
  const bytes = new Uint8Array(object.sizeInBytes());
  object.copyBytesInto(bytes, 0);
  return bytes;
}

/** A part to merge: a file, or a function that reads it (a part in the bucket). */
export type PdfPart = string | (() => Promise<Uint8Array>);

/**
 * Concatenates PDF files (the parts of a PDF job, in order) into `target` while holding one part in
 * memory at a time: each part is parsed with pdf-lib, its pages and everything they use (content,
 * fonts, images) are copied with object numbers continuing after the previous part's and written out
 * at once; only the byte offsets of the objects and the page references stay until the page tree,
 * the catalog and the cross-reference table close the file. So 5,000 badges (35 MB) are merged in
 * the memory of one 100-badge part (about 1 MB of PDF; the next one is read meanwhile, from the disk
 * or the bucket), where loading every part into one pdf-lib document held the whole file several
 * times over.
 */
export async function mergePdfFiles(parts: PdfPart[], target: string, options: { title?: string } = {}) {
  const load = (part: PdfPart | undefined) =>
    part === undefined ? undefined : typeof part === 'string' ? fsp.readFile(part) : part();
  const file = await fsp.open(target, 'w');
  let position = 0;
  const offsets: number[] = [];
  const kids: number[] = [];
  const write = async (bytes: Uint8Array) => {
    let written = 0;
    while (written < bytes.length) written += (await file.write(bytes, written)).bytesWritten;
    position += bytes.length;
  };
  try {
    await write(HEADER);
    let largest = INFO;
    const parent = PDFRef.of(PAGES);
    // the next part is read (from the disk or the bucket) while this one is copied: two in memory at most
    let next = load(parts[0]);
    next?.catch(() => undefined);
    for (let i = 0; i < parts.length; i++) {
      const bytes = await (next as Promise<Uint8Array>);
      next = load(parts[i + 1]);
      next?.catch(() => undefined);
      const source = await PDFDocument.load(bytes, { updateMetadata: false });
      const dest = PDFContext.create();
      dest.largestObjectNumber = largest;
      const copier = PDFObjectCopier.for(source.context, dest);
      for (const page of source.getPages()) {
        // inherited attributes (MediaBox, Resources) move into the page; its old parent is left behind
        const copied = copier.copy(page.node) as PDFPageLeaf;
        copied.set(PDFName.of('Parent'), parent);
        kids.push(dest.register(copied).objectNumber);
      }
      const chunks: Buffer[] = [];
      let size = 0;
      for (const [ref, object] of dest.enumerateIndirectObjects()) {
        const bytes = indirect(ref.objectNumber, serialize(object));
        offsets[ref.objectNumber] = position + size;
        chunks.push(bytes);
        size += bytes.length;
      }
      await write(Buffer.concat(chunks));
      largest = dest.largestObjectNumber;
    }
    const closing: [number, string][] = [
      [PAGES, `<< /Type /Pages /Kids [${kids.map((n) => `${n} 0 R`).join(' ')}] /Count ${kids.length} >>`],
      [CATALOG, `<< /Type /Catalog /Pages ${PAGES} 0 R >>`],
      [
        INFO,
        `<< /Producer (Accredo)${options.title ? ` /Title ${PDFHexString.fromText(options.title).toString()}` : ''} >>`,
      ],
    ];
    for (const [objectNumber, body] of closing) {
      offsets[objectNumber] = position;
      await write(indirect(objectNumber, body));
    }
    const xrefAt = position;
    const rows = [`xref\n0 ${largest + 1}\n0000000000 65535 f \n`];
    for (let n = 1; n <= largest; n++) {
      const at = offsets[n];
      rows.push(at === undefined ? '0000000000 65535 f \n' : `${String(at).padStart(10, '0')} 00000 n \n`);
    }
    rows.push(
      `trailer\n<< /Size ${largest + 1} /Root ${CATALOG} 0 R /Info ${INFO} 0 R >>\nstartxref\n${xrefAt}\n%%EOF\n`,
    );
    await write(Buffer.from(rows.join(''), 'latin1'));
    return { pages: kids.length, bytes: position } satisfies MergeResult;
  } finally {
    await file.close();
  }
}
