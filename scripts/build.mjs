// Builds the shared libraries, the backend and the web app (only what changed, unless --force).
import { must, mtime, newest, tsc, vite } from './lib.mjs';

const force = process.argv.includes('--force');
const LIBS = ['libs/domain', 'libs/i18n', 'libs/templates', 'libs/access'];
const libsSrc = newest(...LIBS.flatMap((lib) => [`${lib}/src`, `${lib}/package.json`]));
const stale = (output, ...inputs) => force || mtime(output) < Math.max(libsSrc, newest(...inputs));

if (LIBS.some((lib) => stale(`${lib}/dist/index.js`))) {
  console.log('• building libs/');
  await must(process.execPath, [tsc, '-b', ...LIBS]);
}
if (stale('backend/dist/main.js', 'backend/src', 'backend/tsconfig.json', 'backend/tsconfig.build.json')) {
  console.log('• building backend/');
  await must(process.execPath, [tsc, '-p', 'backend/tsconfig.build.json']);
}
if (stale('web/dist/index.html', 'web/src', 'web/public', 'web/index.html', 'web/vite.config.ts')) {
  console.log('• building web/');
  await must(process.execPath, [vite, 'build', '--logLevel', 'warn'], { cwd: `${import.meta.dirname}/../web` });
}
if (stale('desktop/dist/core/main.js', 'desktop/src', 'desktop/tsconfig.json', 'desktop/tsconfig.build.json')) {
  // the station's core (npm run station, the e2e's headless station) and the Electron shell
  console.log('• building desktop/');
  await must(process.execPath, [tsc, '-p', 'desktop/tsconfig.build.json']);
}
