// The package's entry: re-exports only, so that a browser bundle that uses the helpers of core.ts
// and not `translate` leaves the catalogues of translate.ts out (issue 15, a light first load).
export * from './core.js';
export { buildCatalogue, type Tree } from './merge.js';
export { type Catalogue, resources, translate } from './translate.js';
