// The one template engine of badges and mails (spec §3 Accreditation template): Handlebars with
// the placeholders of the spec, barcodes and QR codes drawn as SVG (bwip-js), page sizes for print.
// Pure: no I/O, the same in the backend and in the browser.
export * from './barcode.js';
export * from './context.js';
export * from './engine.js';
export * from './errors.js';
export * from './escape.js';
export * from './page.js';
export * from './placeholders.js';
