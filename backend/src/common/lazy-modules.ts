/**
 * Libraries that only some work needs, loaded on its first use instead of at start: an instance
 * that never exports a sheet, renders a PDF or talks to Redis does not hold them (each is 7–14 MiB
 * of V8 heap and ~25 MiB of RSS once loaded; an idle server was ~200 MiB, and an import's peak
 * counts from there: issue 16's "peak RSS < 300 MB"). Each is loaded once and shared.
 */
type ExcelJs = typeof import('exceljs');
type PdfLib = typeof import('pdf-lib');

let excel: Promise<ExcelJs> | undefined;
let pdf: Promise<PdfLib> | undefined;

/** exceljs (sheets written: exports, the import template, reports); the import's parse has its own worker. */
export const loadExcel = (): Promise<ExcelJs> =>
  (excel ??= import('exceljs').then((m) => ((m as { default?: ExcelJs }).default ?? m) as ExcelJs));

/** pdf-lib (a PDF job's parts merged). */
export const loadPdfLib = (): Promise<PdfLib> => (pdf ??= import('pdf-lib'));
