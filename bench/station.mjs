// Benchmark (issue 12): the station's offline store and sync (desktop/src/core/store, sync).
// 1. Offline decisions: a store holding --people accreditations (default 1,000,000, sealed one by
//    one as a snapshot would), then --decisions random scans decided by the station itself (the
//    encrypted lookup, its own scans, libs/access `decide`): p50/p99 of the decision alone
//    (target p99 < 2 ms) and of a whole offline scan with its durable queue write (an fsync).
// 2. Full sync: --rows accreditations (default 100,000) on a real backend, a paired device, and a
//    new station's first sync (snapshot pages into the encrypted store): seconds (target < 10 s).
//    Then the same work one phase at a time on the same data: download (the server's pages as
//    text), parse, seal (key derivation and AES-GCM, one thread) and insert: µs a person and the
//    share of each (the sync itself overlaps them: sealing threads, download of the next page).
//
//   node bench/station.mjs [--db sqlite|mariadb] [--people 1000000] [--decisions 20000] [--rows 100000]
//   [--skip offline|sync]
// (build first: npm run build, which builds backend/dist and desktop/dist). Takes a few minutes.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { root, seedGateAction, startBench } from './lib.mjs';

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: 'sqlite' },
    people: { type: 'string', default: '1000000' },
    decisions: { type: 'string', default: '20000' },
    rows: { type: 'string', default: '100000' },
    skip: { type: 'string', default: '' },
  },
});
const { OfflineStore, sealPage } = await import(`${root}/desktop/dist/core/store/index.js`);
const { GateClient, FakeClock, DeviceApi, systemClock } = await import(`${root}/desktop/dist/core/sync/index.js`);
const nodeCrypto = await import('node:crypto');

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'accredo-station-bench-'));
const day = (offset) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const q = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
const f = (x) => x.toFixed(3);
const lines = [];

if (values.skip !== 'offline') {
  const PEOPLE = Number(values.people);
  const DECISIONS = Number(values.decisions);
  const code = (i) => `ST${String(i).padStart(14, '0')}`;
  const store = OfflineStore.open(path.join(dir, 'offline.db'));
  const t0 = performance.now();
  store.beginSnapshot();
  const PAGE = 10_000;
  for (let i = 1; i <= PEOPLE; i += PAGE) {
    const people = [];
    for (let id = i; id < Math.min(i + PAGE, PEOPLE + 1); id++)
      people.push({
        id,
        actionId: 1,
        bc: code(id),
        groupIds: [1 + (id % 3)],
        zoneIds: id % 2 ? [1] : [],
        days: [],
        values: { 9: day((id % 5) - 2) },
        credit: 0,
        isUnlimited: false,
        meals: [],
        parking: [],
        customId: id,
        firstname: `First${id}`,
        lastname: `Last${id}`,
        imageId: null,
        passages: id % 4 ? [{ type: 1, at: Date.now() - 3_600_000 }] : [],
      });
    store.putSnapshotPage(people);
  }
  const template = {
    id: 1,
    actionId: 1,
    mode: 1,
    zoneId: null,
    rules: [
      { groupId: 1, entrances: 3, daily: true, levelId: 0, info: false, customRule: [] },
      {
        groupId: 2,
        entrances: 2,
        daily: false,
        levelId: 0,
        info: false,
        customRule: [{ customField: 9, type: 'date', values: { system: 'today', check: 'gte', entrances: 0 } }],
      },
    ],
    globalRule: { enabled: true, entrances: 1, daily: false, levelId: 0, info: false },
  };
  const action = { id: 1, dateFrom: day(-1), dateTo: day(30), days: [], isCredit: false };
  store.finishSnapshot({ template, action, timeZone: 'Europe/Prague' }, '0.0', 0);
  const seeded = (performance.now() - t0) / 1000;
  const size = fs.statSync(path.join(dir, 'offline.db')).size;

  // the server is away: every scan is the station's own
  const clock = new FakeClock(Date.now());
  const gate = new GateClient({
    server: 'http://127.0.0.1:9',
    token: 'x',
    store,
    clock,
    fetch: async () => {
      throw new TypeError('offline');
    },
  });
  const pick = () =>
    Math.random() < 0.05 ? `NOPE${Math.floor(Math.random() * 1e9)}` : code(1 + Math.floor(Math.random() * PEOPLE));
  for (let i = 0; i < 2000; i++) gate.decideLocally(pick(), 'entry', null, clock.now()); // warm-up
  const decide = [];
  const decideCpu = [];
  for (let i = 0; i < DECISIONS; i++) {
    const c = pick();
    const cpu0 = process.cpuUsage();
    const s = performance.now();
    gate.decideLocally(c, i % 4 ? 'entry' : 'exit', null, clock.now());
    decide.push(performance.now() - s);
    const cpu = process.cpuUsage(cpu0);
    decideCpu.push((cpu.user + cpu.system) / 1000);
  }
  decide.sort((a, b) => a - b);
  decideCpu.sort((a, b) => a - b);
  const scans = [];
  for (let i = 0; i < 1000; i++) {
    clock.advance(1000);
    const c = pick();
    const s = performance.now();
    await gate.scan(c, 'entry');
    scans.push(performance.now() - s);
  }
  scans.sort((a, b) => a - b);
  store.close();
  lines.push(`store of ${PEOPLE} accreditations sealed in ${seeded.toFixed(1)} s, ${(size / 1048576).toFixed(0)} MiB`);
  lines.push('| offline | runs | p50 ms | p99 ms |', '|---|---|---|---|');
  lines.push(
    `| decision (lookup, open, own scans, decide) | ${DECISIONS} | ${f(q(decide, 0.5))} | ${f(q(decide, 0.99))} |`,
  );
  // on a busy machine the wall-clock p99 is the scheduler's; the process's CPU time is the work
  lines.push(
    `| the same, CPU time of the process | ${DECISIONS} | ${f(q(decideCpu, 0.5))} | ${f(q(decideCpu, 0.99))} |`,
  );
  lines.push(
    `| scan: decision + queue on disk (fsync) | ${scans.length} | ${f(q(scans, 0.5))} | ${f(q(scans, 0.99))} |`,
  );
}

if (values.skip !== 'sync') {
  const ROWS = Number(values.rows);
  const { ds, base, call, subjectId, now, stop } = await startBench(values.db);
  const {
    action,
    group,
    seconds: seeded,
  } = await seedGateAction(
    { ds, call, subjectId, now },
    {
      name: 'Station bench',
      rows: ROWS,
      prefix: 'SB',
    },
  );
  const template = (
    await call('POST', '/device-template', {
      name: 'Main gate',
      actionId: action.id,
      data: { mode: 1, rules: [{ groupId: group.id, entrances: 0 }] },
    })
  ).data;
  const key = (await call('GET', '/device/key')).data;
  const server = base.replace('/api/admin/v1', '');
  const res = await fetch(`${server}/api/device/v1/pair`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ code: key.bc, uid: 'station-bench', name: 'Station' }),
  });
  const { token, device } = (await res.json()).data;
  await call('PUT', `/device/${device.id}`, { name: 'Station', uid: 'station-bench', deviceTemplateId: template.id });
  const store = OfflineStore.open(path.join(dir, 'sync.db'));
  const gate = new GateClient({ server, token, store });
  const s = performance.now();
  const cpu0 = process.cpuUsage();
  await gate.sync();
  const seconds = (performance.now() - s) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  const status = gate.status();
  store.close();
  if (status.people !== ROWS) throw new Error(`synced ${status.people} of ${ROWS}: ${status.lastError}`);

  // the phases alone, on the same data
  // wall ms and CPU ms (the process: here the server's download work runs in it too) of each phase
  const phase = { download: [0, 0], parse: [0, 0], seal: [0, 0], insert: [0, 0] };
  const timed = async (name, f) => {
    const cpu0 = process.cpuUsage();
    const t = performance.now();
    const result = await f();
    const cpu = process.cpuUsage(cpu0);
    phase[name][0] += performance.now() - t;
    phase[name][1] += (cpu.user + cpu.system) / 1000;
    return result;
  };
  const api = new DeviceApi({ server, token, clock: systemClock });
  const pages = [];
  for (let after = 0; after !== null; ) {
    const text = await timed('download', () => api.requestText(`snapshot?after=${after}&limit=2000`, 120_000));
    const page = await timed('parse', () => JSON.parse(text).data);
    pages.push(page);
    after = page.next;
  }
  const phases = OfflineStore.open(path.join(dir, 'phases.db'));
  const sealed = await timed('seal', () =>
    pages.map((p) => sealPage(nodeCrypto, phases.sealKey(), p.people, p.others ?? [])),
  );
  phases.beginSnapshot();
  await timed('insert', () => {
    for (const page of sealed) phases.putSealedPage(page);
  });
  phases.close();
  await stop();
  const n = pages.reduce((sum, p) => sum + p.people.length, 0);
  const totalCpu = Object.values(phase).reduce((a, [, c]) => a + c, 0);
  const totalWall = Object.values(phase).reduce((a, [w]) => a + w, 0);
  lines.push('', `${values.db}: ${ROWS} accreditations seeded in ${seeded.toFixed(1)} s`);
  // CPU time of the process (server and station together here): the wall time on a busy machine
  lines.push('| sync | people | seconds | CPU seconds (server + station) |', '|---|---|---|---|');
  lines.push(
    `| full snapshot into the encrypted store | ${status.people} | ${seconds.toFixed(2)} | ${cpuSeconds.toFixed(2)} |`,
  );
  lines.push(
    '',
    `one phase at a time, one thread (${n} people, ${os.loadavg()[0].toFixed(1)} load average; download: the server's work and the transfer):`,
    '| phase | wall s | CPU s | CPU µs a person | share of the CPU |',
    '|---|---|---|---|---|',
  );
  for (const [name, [wall, cpu]] of Object.entries(phase))
    lines.push(
      `| ${name} | ${(wall / 1000).toFixed(2)} | ${(cpu / 1000).toFixed(2)} | ${((cpu * 1000) / n).toFixed(1)} | ${((100 * cpu) / totalCpu).toFixed(0)} % |`,
    );
  lines.push(
    `| all, one after another | ${(totalWall / 1000).toFixed(2)} | ${(totalCpu / 1000).toFixed(2)} | ${((totalCpu * 1000) / n).toFixed(1)} | |`,
  );
}

fs.rmSync(dir, { recursive: true, force: true });
console.log(`\n${lines.join('\n')}`);
