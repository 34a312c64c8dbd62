import 'reflect-metadata';
import { createRequire } from 'node:module';

// Vitest starts the backend's workers with `--conditions import` (it passes the resolve conditions
// that find the workspace libs' sources), so a CommonJS require() of a dual package gets its ES
// module: yazl's require('buffer-crc32') would see `{default}` and fail. Plain Node (the server)
// is not affected. Seed the require cache with the package's CommonJS build instead.
{
  const require = createRequire(import.meta.url);
  const fromYazl = createRequire(require.resolve('yazl'));
  const resolved = fromYazl.resolve('buffer-crc32');
  if (resolved.endsWith('.mjs')) {
    const commonJs = resolved.replace(/\.mjs$/, '.cjs');
    fromYazl(commonJs);
    require.cache[resolved] = require.cache[commonJs];
  }
}
