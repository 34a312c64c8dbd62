// Benchmark (issue 13): 1,000 A6 badges with a photo and a QR code rendered to one PDF through
// the real call (POST user/print type pdf: more than 200 badges is a job, rendered 100 at a time by
// Chromium and merged), the job followed until its file is ready. Prints the time, the size of the
// file and the peak memory of the server process and of Chromium. Target: < 30 s on our 2-core machine.
//
//   node bench/badge-pdf.mjs [--db sqlite|mariadb] [--badges 1000] [--compare] [--s3]
// (build first: npm run build; Chromium at CHROMIUM_PATH, default /usr/bin/chromium). --s3: the
// photos and the job's parts and file in an S3 bucket (STORAGE_URL), an s3rver in a process of its own.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import path from 'node:path';
import { chromiumPath, requireTools, root, startBench } from './lib.mjs';

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: 'sqlite' },
    badges: { type: 'string', default: '1000' },
    // the job twice: first with the photos read on request, then as shipped (read ahead)
    compare: { type: 'boolean', default: false },
    s3: { type: 'boolean', default: false },
  },
});
const BADGES = Number(values.badges);
requireTools({ [chromiumPath()]: 'chromium', pdfinfo: 'poppler-utils' });

/**
 * 50 distinct 300×400 JPEG "photos" (a gradient, a radial spot and a number, drawn and encoded by
 * Chromium itself), used in turn: uploaded photos are JPEGs, which a PDF carries as they are.
 */
async function photos() {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: chromiumPath(),
    args: ['--no-sandbox', '--disable-gpu', '--headless'],
  });
  const page = await browser.newPage({ viewport: { width: 300, height: 400 } });
  const list = [];
  for (let i = 0; i < 50; i++) {
    await page.setContent(
      `<body style="margin:0;width:300px;height:400px;background:radial-gradient(circle at ${30 + i}% 35%, hsl(${i * 41},40%,80%) 0 18%, transparent 19%),linear-gradient(${i * 7}deg,hsl(${i * 37},60%,60%),hsl(${i * 53},50%,25%))"><div style="font:bold 90px serif;color:#fff;padding:230px 40px 0">${i}</div></body>`,
    );
    list.push(`data:image/jpeg;base64,${(await page.screenshot({ type: 'jpeg', quality: 85 })).toString('base64')}`);
  }
  await browser.close();
  return list;
}

/**
 * Resident memory of the Chromium processes this process started (its descendants: the renderer runs
 * outside Node; other Chromiums on a shared machine are not counted), in MB.
 */
function chromiumMb() {
  try {
    const out = execFileSync('ps', ['-eo', 'pid=,ppid=,rss=,comm='], { encoding: 'utf8' });
    const rows = out
      .trim()
      .split('\n')
      .map((line) => line.trim().split(/\s+/))
      .map(([pid, ppid, rss, comm]) => ({ pid: Number(pid), ppid: Number(ppid), rss: Number(rss), comm }));
    const ours = new Set([process.pid]);
    for (let grew = true; grew; ) {
      grew = false;
      for (const row of rows)
        if (!ours.has(row.pid) && ours.has(row.ppid)) {
          ours.add(row.pid);
          grew = true;
        }
    }
    let kb = 0;
    for (const row of rows) if (row.pid !== process.pid && ours.has(row.pid) && /chrom/i.test(row.comm)) kb += row.rss;
    return kb / 1024;
  } catch {
    return 0;
  }
}

/**
 * The floor of the same machine at the same moment: Chromium printing one plain document of as many
 * A6 pages (a name and a heading per page, no photo, no code) in one page.pdf call, in a browser of
 * its own. The job's time beside it shows what photos, codes, templates, chunking and the merge add.
 */
async function baseline(count) {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: chromiumPath(),
    args: ['--no-sandbox', '--disable-gpu', '--headless', '--disable-dev-shm-usage'],
  });
  try {
    const page = await browser.newPage({ javaScriptEnabled: false });
    const body = Array.from(
      { length: count },
      (_, i) => `<div class="p"><h1>First${i} Last${i}</h1><p>Crew · Bench</p></div>`,
    ).join('');
    const t0 = performance.now();
    await page.setContent(
      `<!DOCTYPE html><html><head><style>@page{size:105mm 148mm;margin:0}body{margin:0;font-family:sans-serif}.p{width:105mm;height:148mm;padding:6mm;box-sizing:border-box;break-after:page}</style></head><body>${body}</body></html>`,
    );
    const pdf = await page.pdf({
      width: '105mm',
      height: '148mm',
      margin: { top: '0', right: '0', bottom: '0', left: '0' },
    });
    return { seconds: (performance.now() - t0) / 1000, mb: pdf.length / 1024 / 1024 };
  } finally {
    await browser.close();
  }
}

/** An s3rver in its own process (its CPU and memory are not the server's), for --s3. */
async function startS3rver() {
  const code = `import fs from 'node:fs'; import os from 'node:os'; import path from 'node:path'; import S3rver from 's3rver';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'accredo-s3-bench-'));
const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: dir, configureBuckets: [{ name: 'bench' }] });
const { port } = await server.run(); console.log(port);
process.on('SIGTERM', async () => { await server.close(); fs.rmSync(dir, { recursive: true, force: true }); process.exit(0); });`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', code], {
    cwd: `${root}/backend`,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise((resolve, reject) => {
    child.stdout.once('data', (d) => resolve(Number(String(d).trim())));
    child.once('exit', (c) => reject(new Error(`s3rver exited (${c})`)));
  });
  return { url: `s3+http://S3RVER:S3RVER@127.0.0.1:${port}/bench`, stop: () => child.kill('SIGTERM') };
}
const s3 = values.s3 ? await startS3rver() : null;
const {
  app,
  call,
  base,
  token,
  stop: stopBench,
} = await startBench(values.db, {
  env: s3 ? { STORAGE_URL: s3.url } : {},
});
const stop = async () => {
  await stopBench();
  s3?.stop();
};
const dist = path.resolve(process.env.BENCH_BACKEND_DIST ?? `${root}/backend/dist`);
const { PdfRenderer, PDF_PREFETCH_BYTES } = await import(`${dist}/modules/pdf/pdf-renderer.service.js`);
const renderer = app.get(PdfRenderer);
let action;
try {
  action = (await call('POST', '/action', { name: { cs: 'Bench' } })).data;
  const template = (
    await call('POST', '/template', {
      name: 'Badge A6',
      pageSize: 'A6',
      htmlData:
        '<div style="font-family: sans-serif; padding: 6mm"><h1 style="margin:0 0 3mm">{{firstname}} {{lastname}}</h1>' +
        '<div style="width:40mm;height:53mm;overflow:hidden">{{user_image}}</div><p>{{group}} · {{actionName}}</p>{{bc}}</div>',
    })
  ).data;
  const group = (await call('POST', '/groups', { name: 'Crew', actionId: action.id, adminTemplateId: template.id }))
    .data;
  const photoList = await photos();
  const kb = photoList.reduce((n, p) => n + (p.length * 3) / 4, 0) / photoList.length / 1024;
  const seeded = performance.now();
  for (let i = 0; i < BADGES; i++) {
    await call('POST', '/user', {
      actionId: action.id,
      firstname: `First${i}`,
      lastname: `Last${i}`,
      email: `p${i}@example.com`,
      groupIds: [group.id],
      imageData: photoList[i % photoList.length],
    });
  }
  console.log(
    `seeded ${BADGES} people with JPEG photos (${kb.toFixed(0)} kB each) in ${((performance.now() - seeded) / 1000).toFixed(1)} s`,
  );

  const floor = await baseline(BADGES);
  console.log(
    `baseline, same machine and run: Chromium prints one plain ${BADGES}-page A6 document (no photo, no code) in ${floor.seconds.toFixed(1)} s (${floor.mb.toFixed(1)} MB)`,
  );
  if (values.compare) {
    renderer.prefetchBytes = 0;
    await printAll('photos read on request (no read-ahead)');
    renderer.prefetchBytes = PDF_PREFETCH_BYTES;
  }
  await printAll('as shipped');
} finally {
  await stop();
}

/** One PDF job of everyone, followed to its file; prints time, split and peak memory. */
async function printAll(label) {
  let peakNode = 0;
  let peakChromium = 0;
  const sample = () => {
    peakNode = Math.max(peakNode, process.memoryUsage().rss / 1024 / 1024);
    peakChromium = Math.max(peakChromium, chromiumMb());
  };
  const sampler = setInterval(sample, 200);
  for (const key of Object.keys(renderer.timings)) renderer.timings[key] = 0;
  const load0 = os.loadavg()[0];
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const started = await call('POST', '/user/print', { actionId: action.id, all: true, filterData: {}, type: 'pdf' });
  let job = started.data;
  while (job.state === 'waiting' || job.state === 'running') {
    await new Promise((resolve) => setTimeout(resolve, 250));
    job = (await call('GET', `/user/print/job/${job.id}`)).data;
  }
  const rendered = performance.now();
  clearInterval(sampler);
  sample();
  // the memory of the job, before this process downloads and reads the file
  const maxRss = process.resourceUsage().maxRSS / 1024;
  const cpu = process.cpuUsage(cpu0);
  if (job.state !== 'done') throw new Error(`job ended ${job.state}: ${job.failReason}`);
  const file = await fetch(`${base}/user/print/job/${job.id}/file`, { headers: { authorization: token } });
  const target = path.join(os.tmpdir(), `badge-pdf-bench-${process.pid}.pdf`);
  await pipeline(Readable.fromWeb(file.body), fs.createWriteStream(target));
  const info = execFileSync('pdfinfo', [target], { encoding: 'utf8' });
  const pages = Number(/Pages:\s+(\d+)/.exec(info)?.[1]);
  const mb = fs.statSync(target).size / 1024 / 1024;
  fs.rmSync(target, { force: true });
  const seconds = (rendered - t0) / 1000;
  const s = (ms) => `${(ms / 1000).toFixed(1)} s`;
  const t = renderer.timings;
  console.log(
    `${values.db}${s3 ? ' + S3 bucket (s3rver)' : ''}, ${label}: ${job.printed} A6 badges (photo + QR) -> one PDF of ${pages} pages, ${mb.toFixed(1)} MB`,
  );
  console.log(
    `  time to the finished file: ${seconds.toFixed(1)} s (target < 30 s), ${((seconds * 1000) / job.printed).toFixed(1)} ms per badge; load average ${load0.toFixed(1)} at the start, ${os.loadavg()[0].toFixed(1)} at the end`,
  );
  console.log(
    `  split (summed over calls; 2 run side by side): templates ${s(t.templateMs)}, HTML ${s(t.htmlMs)}, Chromium load ${s(t.loadMs)}, Chromium page.pdf ${s(t.pdfMs)} in ${t.documents} documents of up to ${Math.ceil(t.badges / Math.max(1, t.documents))}, merge ${s(t.mergeMs)}; server-process CPU ${s((cpu.user + cpu.system) / 1000)}`,
  );
  console.log(
    `  peak memory: server process ${peakNode.toFixed(0)} MB (max RSS so far ${maxRss.toFixed(0)} MB, seeding included), Chromium ${peakChromium.toFixed(0)} MB (its processes summed, sampled every 200 ms)`,
  );
}
