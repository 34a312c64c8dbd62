// The first load of the public pages (issue 15): the JavaScript a browser downloads for `/login` and
// for `/app/online/{key}` on a cold cache, as sent (brotli or gzip, as Chromium asks for it), and the
// same sum with every script counted at gzip -9, beside the target of 300 kB of gzipped JavaScript.
// Build first (npm run build); Chromium at CHROMIUM_PATH (default /usr/bin/chromium).
//   node bench/first-load.mjs
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { chromiumPath, requireTools, root, startBench } from './lib.mjs';

const TARGET_KB = 300;
const webDist = path.join(root, 'web/dist');
if (!fs.existsSync(path.join(webDist, 'index.html'))) {
  console.error('web/dist is missing: run npm run build first');
  process.exit(1);
}

requireTools({ [chromiumPath()]: 'chromium' });
const bench = await startBench('sqlite', { webDist });
const origin = bench.base.replace(/\/api\/admin\/v1$/, '');
const action = (await bench.call('POST', '/action', { name: { cs: 'Bench' } })).data;
const channel = (await bench.call('POST', '/web-channel', { name: 'Bench', actionId: action.id, active: true })).data;

const { chromium } = await import('playwright-core');
const browser = await chromium.launch({
  executablePath: chromiumPath(),
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
});

async function firstLoad(url, ready) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const scripts = [];
  page.on('requestfinished', async (request) => {
    if (request.resourceType() !== 'script') return;
    const sizes = await request.sizes();
    scripts.push({ url: request.url(), sent: sizes.responseBodySize });
  });
  await page.goto(url, { waitUntil: 'networkidle' });
  await page.waitForSelector(ready);
  await context.close();
  let gzip = 0;
  for (const s of scripts) {
    const file = path.join(webDist, new URL(s.url).pathname);
    if (fs.existsSync(file)) gzip += zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length;
  }
  if (process.env.VERBOSE)
    for (const s of scripts)
      console.log(`  ${url.slice(origin.length)} ${new URL(s.url).pathname} ${(s.sent / 1024).toFixed(1)} kB`);
  const sent = scripts.reduce((sum, s) => sum + s.sent, 0);
  return { files: scripts.length, sentKb: sent / 1024, gzipKb: gzip / 1024 };
}

const rows = [
  ['/login', await firstLoad(`${origin}/login`, 'input[type="password"]')],
  [`/app/online/{key}`, await firstLoad(`${origin}/app/online/${channel.channelKey}`, 'form, [role="alert"], h2')],
];
for (const [page, r] of rows)
  console.log(
    `${page.padEnd(20)} scripts ${String(r.files).padStart(2)}  sent ${r.sentKb.toFixed(1).padStart(7)} kB  gzip -9 ${r.gzipKb.toFixed(1).padStart(7)} kB  target ${TARGET_KB} kB  ${r.gzipKb <= TARGET_KB ? 'met' : 'NOT met'}`,
  );
await browser.close();
await bench.stop();
