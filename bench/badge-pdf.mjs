// Benchmark (issue 13): 1,000 A6 badges with a photo and a QR code rendered to one PDF through
// the real call (POST user/print type pdf: more than 200 badges is a job, rendered 100 at a time by
// Chromium and merged), the job followed until its file is ready. Prints the time, the size of the
// file and the peak memory of the server process and of Chromium. Target: < 30 s on our 2-core machine.
//
//   node bench/badge-pdf.mjs [--db sqlite|mariadb] [--badges 1000]
// (build first: npm run build; Chromium at CHROMIUM_PATH, default /usr/bin/chromium).
import { execFileSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import zlib from 'node:zlib';
import { startBench } from './lib.mjs';

const { values } = parseArgs({
  options: { db: { type: 'string', default: 'sqlite' }, badges: { type: 'string', default: '1000' } },
});
const BADGES = Number(values.badges);

/** A 240×320 RGB PNG (a gradient that varies by person, so no two photos are the same file). */
function photo(seed) {
  const w = 240;
  const h = 320;
  const raw = Buffer.alloc((w * 3 + 1) * h);
  for (let y = 0; y < h; y++) {
    const row = y * (w * 3 + 1);
    for (let x = 0; x < w; x++) {
      raw[row + 1 + x * 3] = (x + seed * 7) & 255;
      raw[row + 2 + x * 3] = (y + seed * 13) & 255;
      raw[row + 3 + x * 3] = ((x ^ y) + seed) & 255;
    }
  }
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf) => {
    let c = 0xffffffff;
    for (const b of buf) c = crcTable[(c ^ b) & 255] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type, data) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(td));
    return Buffer.concat([len, td, sum]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
  return `data:image/png;base64,${png.toString('base64')}`;
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

const { call, base, token, stop } = await startBench(values.db);
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
  const seeded = performance.now();
  for (let i = 0; i < BADGES; i++) {
    await call('POST', '/user', {
      actionId: action.id,
      firstname: `First${i}`,
      lastname: `Last${i}`,
      email: `p${i}@example.com`,
      groupIds: [group.id],
      imageData: photo(i),
    });
  }
  console.log(`seeded ${BADGES} people with photos in ${((performance.now() - seeded) / 1000).toFixed(1)} s`);

  let peakNode = 0;
  let peakChromium = 0;
  const sample = () => {
    peakNode = Math.max(peakNode, process.memoryUsage().rss / 1024 / 1024);
    peakChromium = Math.max(peakChromium, chromiumMb());
  };
  const sampler = setInterval(sample, 200);
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
  const pages = (bytes.toString('latin1').match(/\/Type\s*\/Page[^s]/g) ?? []).length;
  console.log(
    `${values.db}: ${job.printed} A6 badges (photo + QR) -> one PDF of ${pages} pages, ${(bytes.length / 1024 / 1024).toFixed(1)} MB`,
  );
  console.log(`  time to the finished file: ${((rendered - t0) / 1000).toFixed(1)} s (target < 30 s)`);
  console.log(`  peak memory: server process ${peakNode.toFixed(0)} MB, Chromium ${peakChromium.toFixed(0)} MB`);
} finally {
  await stop();
}
