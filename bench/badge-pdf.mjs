// Benchmark (issue 13): 1,000 A6 badges with a photo and a QR code rendered to one PDF through
// the real call (POST user/print type pdf: more than 200 badges is a job, rendered 100 at a time by
// Chromium and merged), the job followed until its file is ready. Prints the time, the size of the
// file and the peak memory of the server process and of Chromium. Target: < 30 s on our 2-core machine.
//
//   node bench/badge-pdf.mjs [--db sqlite|mariadb] [--badges 1000]
// (build first: npm run build; Chromium at CHROMIUM_PATH, default /usr/bin/chromium).
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { parseArgs } from 'node:util';
import path from 'node:path';
import { root, startBench } from './lib.mjs';

const { values } = parseArgs({
  options: { db: { type: 'string', default: 'sqlite' }, badges: { type: 'string', default: '1000' } },
});
const BADGES = Number(values.badges);

/**
 * 50 distinct 300×400 JPEG "photos" (a gradient, a radial spot and a number, drawn and encoded by
 * Chromium itself), used in turn: uploaded photos are JPEGs, which a PDF carries as they are.
 */
async function photos() {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
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

/** Resident memory of every Chromium process, in MB (the renderer runs outside Node). */
function chromiumMb() {
  try {
    const out = execFileSync('ps', ['-eo', 'rss=,args='], { encoding: 'utf8' });
    let kb = 0;
    for (const line of out.split('\n'))
      if (/chrom/i.test(line) && !/\bps\b/.test(line)) kb += Number.parseInt(line, 10) || 0;
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
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
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

const { app, call, base, token, stop } = await startBench(values.db);
const dist = path.resolve(process.env.BENCH_BACKEND_DIST ?? `${root}/backend/dist`);
const { PdfRenderer } = await import(`${dist}/modules/pdf/pdf-renderer.service.js`);
const renderer = app.get(PdfRenderer);
try {
  const action = (await call('POST', '/action', { name: { cs: 'Bench' } })).data;
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

  let peakNode = 0;
  let peakChromium = 0;
  const sample = () => {
    peakNode = Math.max(peakNode, process.memoryUsage().rss / 1024 / 1024);
    peakChromium = Math.max(peakChromium, chromiumMb());
  };
  const floor = await baseline(BADGES);
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
  if (job.state !== 'done') throw new Error(`job ended ${job.state}: ${job.failReason}`);
  const file = await fetch(`${base}/user/print/job/${job.id}/file`, { headers: { authorization: token } });
  const bytes = Buffer.from(await file.arrayBuffer());
  clearInterval(sampler);
  sample();
  const { PDFDocument } = await import('pdf-lib');
  const pages = (await PDFDocument.load(bytes)).getPageCount();
  console.log(
    `${values.db}: ${job.printed} A6 badges (photo + QR) -> one PDF of ${pages} pages, ${(bytes.length / 1024 / 1024).toFixed(1)} MB`,
  );
  const seconds = (rendered - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const s = (ms) => `${(ms / 1000).toFixed(1)} s`;
  const t = renderer.timings;
  console.log(
    `  time to the finished file: ${seconds.toFixed(1)} s (target < 30 s), ${((seconds * 1000) / job.printed).toFixed(1)} ms per badge; load average ${load0.toFixed(1)} at the start, ${os.loadavg()[0].toFixed(1)} at the end`,
  );
  console.log(
    `  split (summed over calls; 2 run side by side): templates ${s(t.templateMs)}, HTML ${s(t.htmlMs)}, Chromium load ${s(t.loadMs)}, Chromium page.pdf ${s(t.pdfMs)} in ${t.documents} documents of up to ${Math.ceil(t.badges / Math.max(1, t.documents))}, merge ${s(t.mergeMs)}; server-process CPU ${s((cpu.user + cpu.system) / 1000)}`,
  );
  console.log(
    `  baseline, same machine and run: Chromium prints one plain ${BADGES}-page A6 document (no photo, no code) in ${floor.seconds.toFixed(1)} s (${floor.mb.toFixed(1)} MB)`,
  );
  console.log(
    `  peak memory: server process ${peakNode.toFixed(0)} MB (max RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB), Chromium ${peakChromium.toFixed(0)} MB (all its processes, sampled every 200 ms)`,
  );
} finally {
  await stop();
}
