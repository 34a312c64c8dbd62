import fsp from 'node:fs/promises';
import { DEFAULT_PAGE_SIZE, isPageSize, PAGE_SIZES_MM, type PrintPage, printDocument } from '@accredo/templates';
import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
// playwright-core is loaded on the first PDF (launch below): imported up front it held ~50 MiB of
// every server's memory, used or not (bench/import.mjs measures the server at rest; issue 16)
import type { Browser, Page, Route } from 'playwright-core';
import { AppError } from '../../common/app-error.js';
import { loadPdfLib } from '../../common/lazy-modules.js';
import { ImageService } from '../image/image.service.js';

/** The origin the badge documents are loaded from: `/api/file/…` photos resolve to it and are served from storage. */
export const PDF_ORIGIN = 'https://accredo.pdf';
/** Pages (tabs) rendering at once per server instance. */
const POOL_SIZE = 2;
/** Badges per Chromium render; a longer document is rendered in parts and merged. */
export const PDF_RENDER_CHUNK = 100;
const INSTALL_HINT = 'apt-get install -y chromium';
/** How long a document may take to load its photos. */
const LOAD_TIMEOUT_MS = 120_000;
/** Photos of a document read ahead of Chromium's requests, up to this many bytes (the rest on request). */
export const PDF_PREFETCH_BYTES = 48 * 1024 * 1024;
/** Photo reads at once while reading ahead. */
const PREFETCH_CONCURRENCY = 4;
/** Our photo URLs in a badge document (the file keys of `ImageService`). */
const PHOTO_URL = /\/api\/file\/([a-f0-9-]{36}\.(?:png|jpg|gif))/g;

type Photo = { body: Buffer; mimeType: string };

export interface PdfOptions {
  title?: string;
  lang?: string;
}

/**
 * Where a server's PDF time goes, summed over its calls since start (bench/badge-pdf.mjs prints the
 * split): the documents and badges rendered, building the HTML, Chromium loading it (photos
 * included) and printing it (`page.pdf`), and, added by the job worker, the templates and the merge.
 * Calls that overlap (the pool of 2) each count their own time.
 */
export interface PdfTimings {
  documents: number;
  badges: number;
  templateMs: number;
  htmlMs: number;
  loadMs: number;
  pdfMs: number;
  mergeMs: number;
}

/**
 * Badges to PDF with Debian's Chromium (CHROMIUM_PATH, default /usr/bin/chromium) driven by
 * playwright-core. One browser per server instance, launched on first use and reused (launched again
 * after a crash), a pool of 2 pages. Every page size gets its exact paper (`page.pdf` width and height,
 * not the CSS), one badge per page; text stays text with its fonts embedded and the engine's SVG
 * barcodes stay vectors. The admin-written HTML never runs: JavaScript is off in the browser context,
 * and every request is refused except `data:` URLs and our own photo files (`/api/file/…`), served
 * from storage, so a template can reach nothing.
 */
@Injectable()
export class PdfRenderer implements OnApplicationShutdown {
  private readonly logger = new Logger('PdfRenderer');
  /** The Chromium executable; tests point it elsewhere to see the error. */
  executablePath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
  private browser?: Promise<Browser>;
  private idle: Page[] = [];
  private created = 0;
  private waiters: ((page: Page) => void)[] = [];
  /** Bytes of photos read ahead per document (bench/badge-pdf.mjs sets 0 to compare). */
  prefetchBytes = PDF_PREFETCH_BYTES;
  /** The photos read ahead for the document a page is loading (answered from here, then dropped). */
  private readonly photos = new WeakMap<Page, Map<string, Photo>>();
  readonly timings: PdfTimings = { documents: 0, badges: 0, templateMs: 0, htmlMs: 0, loadMs: 0, pdfMs: 0, mergeMs: 0 };

  constructor(private readonly images: ImageService) {}

  /** The badges as one PDF: consecutive badges of the same size rendered together (chunked), then merged. */
  async render(pages: PrintPage[], options: PdfOptions = {}): Promise<Buffer> {
    if (!pages.length) throw new AppError('NOTHING_TO_PRINT');
    const runs: { size: keyof typeof PAGE_SIZES_MM; pages: PrintPage[] }[] = [];
    for (const p of pages) {
      const size = isPageSize(p.pageSize) ? p.pageSize : DEFAULT_PAGE_SIZE;
      const last = runs.at(-1);
      if (last && last.size === size && last.pages.length < PDF_RENDER_CHUNK) last.pages.push(p);
      else runs.push({ size, pages: [p] });
    }
    if (runs.length === 1) return this.renderRun(runs[0].size, runs[0].pages, options);
    const { PDFDocument } = await loadPdfLib();
    const merged = await PDFDocument.create();
    if (options.title) merged.setTitle(options.title);
    for (const run of runs) {
      const part = await PDFDocument.load(await this.renderRun(run.size, run.pages, options));
      for (const page of await merged.copyPages(part, part.getPageIndices())) merged.addPage(page);
    }
    return Buffer.from(await merged.save());
  }

  private async renderRun(size: keyof typeof PAGE_SIZES_MM, pages: PrintPage[], options: PdfOptions) {
    const { width, height } = PAGE_SIZES_MM[size];
    const started = performance.now();
    const html = printDocument(pages, options).replace('<head>', `<head>\n<base href="${PDF_ORIGIN}/">`);
    this.timings.htmlMs += performance.now() - started;
    // the photos are read while the document waits for a page of the pool
    const photos = this.prefetch(html);
    const page = await this.acquire();
    const acquired = performance.now();
    let healthy = true;
    try {
      this.photos.set(page, await photos);
      // photos load through the route below; a busy machine gets time (100 badges with photos)
      await page.setContent(html, { waitUntil: 'load', timeout: LOAD_TIMEOUT_MS });
      const loaded = performance.now();
      this.timings.loadMs += loaded - acquired;
      const pdf = await page.pdf({
        width: `${width}mm`,
        height: `${height}mm`,
        printBackground: true,
        preferCSSPageSize: false,
        margin: { top: '0', right: '0', bottom: '0', left: '0' },
      });
      this.timings.pdfMs += performance.now() - loaded;
      this.timings.documents++;
      this.timings.badges += pages.length;
      return pdf;
    } catch (err) {
      healthy = false;
      throw err;
    } finally {
      this.photos.delete(page);
      this.release(page, healthy);
    }
  }

  /**
   * Reads the document's photos from storage before Chromium asks for them (their rows in one
   * query, the files a few at a time, up to `prefetchBytes`): each request is then answered from
   * memory, where reading it on request held Chromium's load of 100 badges on 200 database queries
   * and 100 disk reads while the server's thread was busy with the other chunk. A photo not read
   * ahead is read on request.
   */
  private async prefetch(html: string): Promise<Map<string, Photo>> {
    const found = new Map<string, Photo>();
    if (this.prefetchBytes <= 0) return found;
    const located = [...(await this.images.locateMany(Array.from(html.matchAll(PHOTO_URL), (m) => m[1])))];
    let budget = this.prefetchBytes;
    let next = 0;
    const lane = async () => {
      while (next < located.length) {
        const [key, file] = located[next++];
        if (file.size > budget) continue;
        budget -= file.size;
        try {
          const chunks: Buffer[] = [];
          for await (const chunk of file.read()) chunks.push(chunk as Buffer);
          found.set(key, { body: Buffer.concat(chunks), mimeType: file.mimeType });
        } catch {
          // read again on request (and answered 404 there if it is gone)
        }
      }
    };
    await Promise.all(Array.from({ length: PREFETCH_CONCURRENCY }, lane));
    return found;
  }

  private async readPhoto(key: string): Promise<Photo> {
    const { stream, mimeType } = await this.images.open(key);
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    return { body: Buffer.concat(chunks), mimeType };
  }

  private async launch(): Promise<Browser> {
    try {
      await fsp.access(this.executablePath, fsp.constants.X_OK);
    } catch {
      throw new AppError('PDF_RENDERER_MISSING', {
        path: this.executablePath,
        install: INSTALL_HINT,
        env: 'CHROMIUM_PATH',
      });
    }
    const { chromium } = await import('playwright-core');
    const browser = await chromium.launch({
      executablePath: this.executablePath,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--headless', '--disable-dev-shm-usage'],
    });
    const current = this.browser;
    browser.on('disconnected', () => {
      if (this.browser !== current) return; // closed on purpose
      this.logger.warn('Chromium went away; it is launched again on the next PDF');
      this.reset();
    });
    return browser;
  }

  private getBrowser(): Promise<Browser> {
    if (!this.browser) {
      this.browser = this.launch();
      this.browser.catch(() => {
        this.browser = undefined;
      });
    }
    return this.browser;
  }

  private async newPage(): Promise<Page> {
    const browser = await this.getBrowser();
    // No script runs in a badge, and nothing leaves the page but our own photos.
    const context = await browser.newContext({ javaScriptEnabled: false, offline: false });
    const page = await context.newPage();
    await page.route('**/*', (route) => this.route(route, page));
    return page;
  }

  private async route(route: Route, page: Page): Promise<void> {
    const url = route.request().url();
    if (url.startsWith(`${PDF_ORIGIN}/api/file/`)) {
      const key = decodeURIComponent(url.slice(`${PDF_ORIGIN}/api/file/`.length).split(/[?#]/)[0]);
      try {
        const preloaded = this.photos.get(page);
        const photo = preloaded?.get(key) ?? (await this.readPhoto(key));
        preloaded?.delete(key);
        await route.fulfill({ status: 200, contentType: photo.mimeType, body: photo.body });
      } catch {
        await route.fulfill({ status: 404, body: '' });
      }
      return;
    }
    await route.abort('blockedbyclient');
  }

  private async acquire(): Promise<Page> {
    const page = this.idle.pop();
    if (page && !page.isClosed()) return page;
    if (this.created < POOL_SIZE) {
      this.created++;
      try {
        return await this.newPage();
      } catch (err) {
        this.created--;
        throw err;
      }
    }
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  private release(page: Page, healthy: boolean): void {
    if (!healthy || page.isClosed()) {
      this.created = Math.max(0, this.created - 1);
      page
        .context()
        .close()
        .catch(() => undefined);
      const waiter = this.waiters.shift();
      if (waiter) {
        this.created++;
        this.newPage().then(waiter, () => {
          this.created--;
          // the next render launches again; a waiter without a page retries through acquire
          this.acquire().then(waiter, () => undefined);
        });
      }
      return;
    }
    const waiter = this.waiters.shift();
    if (waiter) waiter(page);
    else this.idle.push(page);
  }

  private reset(): void {
    this.browser = undefined;
    this.idle = [];
    this.created = 0;
  }

  /** Closes the browser (app shutdown); a later PDF launches it again. */
  async onApplicationShutdown(): Promise<void> {
    const browser = this.browser;
    this.reset();
    if (browser) await (await browser.catch(() => undefined))?.close().catch(() => undefined);
  }
}
