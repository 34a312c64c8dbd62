import { PAGE_SIZES_PRINT } from '@accredo/domain';
import { escapeHtml } from './escape.js';

export type PageSize = (typeof PAGE_SIZES_PRINT)[number];

/** Width and height in millimetres of the page sizes of spec §9 (-L: landscape). */
export const PAGE_SIZES_MM: Record<PageSize, { width: number; height: number }> = {
  A4: { width: 210, height: 297 },
  'A4-L': { width: 297, height: 210 },
  A5: { width: 148, height: 210 },
  'A5-L': { width: 210, height: 148 },
  A6: { width: 105, height: 148 },
  'A6-L': { width: 148, height: 105 },
};

export const DEFAULT_PAGE_SIZE: PageSize = 'A6';

export function isPageSize(value: unknown): value is PageSize {
  return typeof value === 'string' && (PAGE_SIZES_PRINT as readonly string[]).includes(value);
}

/** The size of a page in mm; an unknown size is A6 (the templates' default). */
export function pageSizeMm(size: string | null | undefined): { width: number; height: number } {
  return PAGE_SIZES_MM[isPageSize(size) ? size : DEFAULT_PAGE_SIZE];
}

/**
 * The CSS page rule of a size. Chromium ignores a named size such as `A6` in `@page`; an explicit
 * `size: 105mm 148mm` is honoured (also by its PDF export with preferCSSPageSize).
 */
export function pageCss(size: string | null | undefined): string {
  const { width, height } = pageSizeMm(size);
  return `@page { size: ${width}mm ${height}mm; margin: 0; }`;
}

export interface PrintPage {
  /** the rendered badge */
  html: string;
  pageSize: string;
}

/**
 * One HTML document of badges, one per page. Every page size in it gets a named CSS page, so badges
 * of groups with different templates (A6 and A5-L, say) each print on their own size; the first
 * page's size is also the document's default. On screen the pages show as sheets.
 */
export function printDocument(pages: PrintPage[], options: { title?: string; lang?: string } = {}): string {
  const sizes = [...new Set(pages.map((p) => (isPageSize(p.pageSize) ? p.pageSize : DEFAULT_PAGE_SIZE)))];
  const first = sizes[0] ?? DEFAULT_PAGE_SIZE;
  const named = sizes
    .map((size) => {
      const { width, height } = PAGE_SIZES_MM[size];
      return `@page accredo-${size} { size: ${width}mm ${height}mm; margin: 0; }
.accredo-page-${size} { page: accredo-${size}; width: ${width}mm; height: ${height}mm; }`;
    })
    .join('\n');
  const body = pages
    .map((p) => {
      const size = isPageSize(p.pageSize) ? p.pageSize : DEFAULT_PAGE_SIZE;
      return `<div class="accredo-page accredo-page-${size}">${p.html}</div>`;
    })
    .join('\n');
  return `<!DOCTYPE html>
<html lang="${escapeHtml(options.lang ?? 'cs')}">
<head>
<meta charset="utf-8">
<title>${escapeHtml(options.title ?? 'Accredo')}</title>
<style>
${pageCss(first)}
${named}
html, body { margin: 0; padding: 0; }
.accredo-page { position: relative; box-sizing: border-box; overflow: hidden; break-after: page; page-break-after: always; }
.accredo-page:last-child { break-after: auto; page-break-after: auto; }
.accredo-page svg.bc { display: inline-block; vertical-align: middle; }
@media screen {
  body { background: #e9ecef; padding: 8px 0; }
  .accredo-page { background: #fff; margin: 0 auto 8px; box-shadow: 0 1px 4px rgba(0, 0, 0, 0.25); }
}
</style>
</head>
<body>
${body}
</body>
</html>`;
}
