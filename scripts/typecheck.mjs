// `npm run typecheck`: TypeScript over every part of the repository (the libs are built, the rest
// checked without output). `npm test` runs the same list.
import { pathToFileURL } from 'node:url';
import { must, tsc } from './lib.mjs';

export const TSC_RUNS = [
  ['-b', 'libs/domain', 'libs/i18n', 'libs/templates', 'libs/access'],
  ['-p', 'backend/tsconfig.json', '--noEmit'],
  ['-p', 'web/tsconfig.json', '--noEmit'],
  ['-p', 'e2e/tsconfig.json', '--noEmit'],
  ['-p', 'desktop/tsconfig.json', '--noEmit'],
];

export async function typecheck() {
  for (const args of TSC_RUNS) await must(process.execPath, [tsc, ...args]);
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await typecheck();
