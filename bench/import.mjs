// Benchmark (issues 4, 16): the spreadsheet import beside exceljs's bare streaming read of the same file.
//   node bench/import.mjs [--db sqlite|mariadb] [--rows 10000] [--rounds 3] [--route file|json] [--profile DIR] [--trace]
// (build first: npm run build). The server runs in a child process of its own, so its peak RSS
// (VmHWM) is the import's alone; the bare read runs in another child, on the same file, in the
// same rounds (interleaved), and the figures are the medians. `--route json` sends the sheet as the
// base64 JSON body of spec §7 instead of the multipart upload the web app uses.
import { fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import ExcelJS from 'exceljs';
import { serverEnv } from '../scripts/lib.mjs';
import { databaseCpuMs } from './lib.mjs';

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: 'sqlite' },
    rows: { type: 'string', default: '10000' },
    rounds: { type: 'string', default: '3' },
    route: { type: 'string', default: 'file' },
    child: { type: 'string' },
    file: { type: 'string' },
    /** a folder: the server child runs with --cpu-prof and writes its profile there */
    profile: { type: 'string' },
    /** print the server's RSS during each import (sampled every 100 ms from /proc) */
    trace: { type: 'boolean', default: false },
    /** extra node flags for the server child, e.g. --server-args='--trace-gc' */
    'server-args': { type: 'string', default: '' },
  },
});

const mib = (bytes) => `${(bytes / 1048576).toFixed(0)} MiB`;
/** VmHWM (peak) and VmRSS (now) of a process, in bytes, from /proc. */
function memoryOf(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) * 1024;
  return { peak: kb('VmHWM'), rss: kb('VmRSS') };
}
/** CPU seconds (user + system, every thread) a process has used, from /proc. */
function cpuOf(pid) {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// ---- child: exceljs's bare streaming read (the baseline), rows counted ----
if (values.child === 'bare') {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  let rows = 0;
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(values.file, {
    entries: 'emit',
    sharedStrings: 'cache',
    worksheets: 'emit',
  });
  for await (const sheet of reader) {
    for await (const row of sheet) if (row.number > 1) rows++;
    break;
  }
  const seconds = (performance.now() - t0) / 1000;
  const c = process.cpuUsage(c0);
  process.send({ rows, seconds, cpu: (c.user + c.system) / 1e6, peak: memoryOf(process.pid).peak }, () =>
    process.exit(0),
  );
  await new Promise(() => {});
}

// ---- child: the server on a fresh database, answering the parent's requests ----
if (values.child === 'server') {
  const { startBench } = await import('./lib.mjs');
  const bench = await startBench(values.db);
  const field = (
    await bench.call('POST', '/custom-field', { name: 'company', label: { cs: 'Firma' }, customFieldType: 1 })
  ).data;
  process.on('message', async (msg) => {
    if (msg.kind === 'action') {
      const action = (await bench.call('POST', '/action', { name: { cs: msg.name }, customField: [{ id: field.id }] }))
        .data;
      await bench.call('POST', '/groups', { name: 'Crew', actionId: action.id });
      process.send({ kind: 'action', id: action.id });
    } else if (msg.kind === 'count') {
      const [{ n }] = await bench.ds.query('SELECT COUNT(*) AS n FROM accreditation WHERE actionId = ?', [
        msg.actionId,
      ]);
      const [{ v }] = await bench.ds.query(
        'SELECT COUNT(*) AS v FROM accreditation_value v JOIN accreditation a ON a.id = v.accreditationId WHERE a.actionId = ?',
        [msg.actionId],
      );
      const [{ g }] = await bench.ds.query(
        'SELECT COUNT(*) AS g FROM accreditation_group x JOIN accreditation a ON a.id = x.accreditationId WHERE a.actionId = ?',
        [msg.actionId],
      );
      process.send({ kind: 'count', n: Number(n), values: Number(v), groups: Number(g) });
    } else if (msg.kind === 'settle') {
      // MariaDB: the trigram worker indexes the imported people for search after the commit; the
      // next round starts once it is done, so that no round shares the database with the last one's
      const t0 = performance.now();
      while (values.db === 'mariadb' && (await bench.ds.query('SELECT 1 AS n FROM trigram_pending LIMIT 1')).length) {
        if (performance.now() - t0 > 300_000)
          throw new Error('the trigram worker did not index the import in 5 minutes');
        await new Promise((r) => setTimeout(r, 20));
      }
      process.send({ kind: 'settle', seconds: (performance.now() - t0) / 1000 });
    } else if (msg.kind === 'mem') {
      process.send({ kind: 'mem', ...process.memoryUsage() });
    } else if (msg.kind === 'stop') {
      await bench.stop();
      process.exit(0);
    }
  });
  process.send({ kind: 'ready', base: bench.base, token: bench.token });
  await new Promise(() => {});
}

// ---- parent ----
const ROWS = Number(values.rows);
const ROUNDS = Math.max(1, Number(values.rounds));
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'accredo-import-bench-'));
const file = path.join(dir, 'import.xlsx');
{
  // written by the streaming writer (shared strings, as Excel saves), so the parent stays small too
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useSharedStrings: true });
  const ws = wb.addWorksheet('import');
  ws.addRow(['firstname', 'lastname', 'email', 'group', 'zones', 'bc', 'company', 'photo']).commit();
  for (let i = 0; i < ROWS; i++)
    ws.addRow([
      `First${i}`,
      `Last${i}`,
      `p${i}@example.com`,
      i % 3 ? 'Crew' : '',
      '',
      '',
      `Company ${i % 100}`,
    ]).commit();
  ws.commit();
  await wb.commit();
}
const size = fs.statSync(file).size;

const self = new URL(import.meta.url).pathname;
// started as `npm start` starts the server (scripts/lib.mjs serverEnv: glibc's malloc arenas)
const server = fork(self, ['--child', 'server', '--db', values.db], {
  stdio: 'inherit',
  env: serverEnv(),
  execArgv: [
    ...(values.profile ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(values.profile)}`] : []),
    ...values['server-args'].split(' ').filter(Boolean),
  ],
});
const replies = [];
server.on('exit', (code, signal) => {
  if (code) console.error(`server exited: ${code ?? signal}`);
});
server.on('exit', (code, signal) => {
  if (code !== 0) console.error(`server exited: ${code ?? signal}`);
});
let waiting = null;
server.on('message', (m) => {
  if (waiting) {
    const w = waiting;
    waiting = null;
    w(m);
  } else replies.push(m);
});
const next = () => (replies.length ? Promise.resolve(replies.shift()) : new Promise((r) => (waiting = r)));
const ask = async (msg) => {
  server.send(msg);
  return next();
};
const { base, token } = await next();
await new Promise((r) => setTimeout(r, 1000));
const before = memoryOf(server.pid);
const restHeap = await ask({ kind: 'mem' });

async function bareRead() {
  // exceljs leaves the sheet's temporary file behind when a reader stops after the first sheet: in
  // the bench's own folder, removed at the end
  const child = fork(self, ['--child', 'bare', '--file', file], {
    stdio: 'inherit',
    env: { ...process.env, TMPDIR: dir },
  });
  return new Promise((resolve) => child.once('message', resolve));
}

async function importOnce(round) {
  const { id: actionId } = await ask({ kind: 'action', name: `Import ${round}` });
  let body;
  let headers = { authorization: token };
  if (values.route === 'json') {
    const dataFile = `data:application/vnd.openxmlformats-officedocument.spreadsheetml.sheet;base64,${fs.readFileSync(file).toString('base64')}`;
    body = JSON.stringify({ actionId, dataFile, zonesImportType: 2 });
    headers = { ...headers, 'content-type': 'application/json' };
  } else {
    body = new FormData();
    body.append('actionId', String(actionId));
    body.append('zonesImportType', '2');
    body.append('dataFile', await fs.openAsBlob(file), 'import.xlsx');
  }
  const t0 = performance.now();
  const c0 = cpuOf(server.pid);
  const db0 = values.db === 'mariadb' ? databaseCpuMs() : null;
  const trace = [];
  const sampler = setInterval(() => trace.push([performance.now() - t0, memoryOf(server.pid).rss]), 100);
  const res = await fetch(`${base}/user/import${values.route === 'json' ? '' : '/file'}`, {
    method: 'POST',
    headers,
    body,
  });
  const answer = await res.json();
  const seconds = (performance.now() - t0) / 1000;
  const cpu = cpuOf(server.pid) - c0;
  const dbCpu = db0 === null ? null : (databaseCpuMs() - db0) / 1000;
  clearInterval(sampler);
  if (values.trace) {
    const step = Math.max(1, Math.round(trace.length / 40));
    const shown = trace.filter((_, i) => i % step === 0).map(([, rss]) => (rss / 1048576).toFixed(0));
    console.log(`  round ${round}: the server's RSS in MiB every ${step * 100} ms: ${shown.join(' ')}`);
  }
  if (!res.ok) throw new Error(`import: ${res.status} ${JSON.stringify(answer).slice(0, 500)}`);
  const count = await ask({ kind: 'count', actionId });
  const expectedGroups = Array.from({ length: ROWS }, (_, i) => i % 3).filter(Boolean).length;
  if (answer.data.imported !== ROWS || count.n !== ROWS || count.values !== ROWS || count.groups !== expectedGroups)
    throw new Error(`integrity: imported ${answer.data.imported}, stored ${JSON.stringify(count)} of ${ROWS} rows`);
  const settle0 = db0 === null ? null : databaseCpuMs();
  const { seconds: indexed } = await ask({ kind: 'settle' });
  const indexDbCpu = settle0 === null ? null : (databaseCpuMs() - settle0) / 1000;
  return { seconds, cpu, dbCpu, indexed, indexDbCpu };
}

// a failed round stops the server child too, so nothing is left running
process.on('uncaughtException', (err) => {
  console.error(err);
  server.kill();
  process.exit(1);
});
const bare = [];
const bareCpu = [];
const imports = [];
const importCpu = [];
const importDbCpu = [];
const indexedAfter = [];
const indexDbCpu = [];
let barePeak = 0;
for (let round = 1; round <= ROUNDS; round++) {
  const b = await bareRead();
  if (b.rows !== ROWS) throw new Error(`bare read saw ${b.rows} rows of ${ROWS}`);
  bare.push(b.seconds);
  bareCpu.push(b.cpu);
  barePeak = Math.max(barePeak, b.peak);
  const run = await importOnce(round);
  imports.push(run.seconds);
  importCpu.push(run.cpu);
  if (run.dbCpu !== null) importDbCpu.push(run.dbCpu);
  indexedAfter.push(run.indexed);
  if (run.indexDbCpu !== null) indexDbCpu.push(run.indexDbCpu);
}
const peak = memoryOf(server.pid).peak;
await new Promise((r) => setTimeout(r, 3000));
const after = memoryOf(server.pid).rss;
const afterHeap = await ask({ kind: 'mem' });
const exited = new Promise((r) => server.once('exit', r));
server.send({ kind: 'stop' });
await exited;
fs.rmSync(dir, { recursive: true, force: true });

const bareRate = ROWS / median(bare);
const importRate = ROWS / median(imports);
console.log(
  `import on ${values.db} (${values.route === 'json' ? 'JSON base64' : 'multipart'}): ${ROWS} rows (${(size / 1024).toFixed(0)} KiB), median of ${ROUNDS} rounds\n` +
    `  import          ${median(imports).toFixed(2)} s = ${importRate.toFixed(0)} rows/s\n` +
    `  exceljs bare    ${median(bare).toFixed(2)} s = ${bareRate.toFixed(0)} rows/s (streaming read of the same file, peak RSS ${mib(barePeak)})\n` +
    `  ratio           ${(importRate / bareRate).toFixed(2)} × bare read (target ≥ 0.35)\n` +
    `  CPU time        import ${median(importCpu).toFixed(2)} s (the server, every thread), bare read ${median(bareCpu).toFixed(2)} s: ${(median(bareCpu) / median(importCpu)).toFixed(2)} × (less moved by other load on the machine)${importDbCpu.length ? `; the database server ${median(importDbCpu).toFixed(2)} s meanwhile` : ''}\n` +
    (values.db === 'mariadb'
      ? `  indexed         for search ${median(indexedAfter).toFixed(2)} s after the answer, ${median(indexDbCpu).toFixed(2)} s of the database's CPU (the trigram worker; each round starts once it is done)\n`
      : '') +
    `  server RSS      ${mib(before.rss)} before, peak ${mib(peak)} (target < 300 MB = 286 MiB), ${mib(after)} 3 s after the last import\n` +
    `  server V8 heap  used ${mib(restHeap.heapUsed)} of ${mib(restHeap.heapTotal)} at rest before, ${mib(afterHeap.heapUsed)} of ${mib(afterHeap.heapTotal)} after (main thread; external ${mib(restHeap.external)} → ${mib(afterHeap.external)})\n` +
    `  integrity       every round: ${ROWS} people, ${ROWS} values, the group rows of the sheet`,
);
