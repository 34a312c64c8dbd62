// The light half of the engine, for the browser bundle: the placeholder catalogue, the one
// buildContext and the sample person, and the page sizes, without Handlebars and bwip-js (the web
// previews through the server, which renders with the whole engine of ./index.ts).
export * from './context.js';
export * from './page.js';
export * from './placeholders.js';
