// Benchmark (issue 11): online gate decisions over HTTP. Seeds 100,000 accreditations of one action
// (each in a group), a mode-1 template with unlimited entrances (so every scan writes its passage),
// pairs 8 devices through the protocol, then sends scans from a worker thread (its own core) with a
// number of requests in flight, each device in turn, random people, unique nonces. Prints
// decisions/s and p50/p99 latency, next to a bare Fastify hello-world measured by the same client
// in the same run, and the server process's CPU time per request (the client is a child process,
// so this is the server's own cost: on a loaded machine the wall-clock figures are the scheduler's).
// ACCREDO_SCAN_PATH=nest measures the scan through Nest's pipeline instead of the lean handler;
// ACCREDO_SCAN_PATH=fastify the lean handler inside Fastify without the raw path on Node's server.
// --profile FILE writes the server's CPU profile of the measured scans (chrome://inspect, or any
// .cpuprofile reader).
//
//   node bench/gate.mjs [--db sqlite|mariadb] [--rows 100000] [--scans 10000] [--concurrency 32] [--profile FILE]
// (build first: npm run build). MariaDB at TEST_MARIADB_URL (default mysql://root@127.0.0.1:3306).
//
// --race (issue 11 "exactly the allowed count under races"): instead of the speed run, 10,000 scans
// (--scans) of the same 20 people sent at once (1,000 in flight unless --concurrency is given) over
// 8 devices: 3 share a mode-1 template whose rule allows 3 entrances, 3 share a mode-2 till taking
// 7 Kč from a balance of 100 (at most 14 deductions, 2 Kč left), 2 are mode-5 barriers of a car
// park of 10 places that all 20 hold a pass for. Prints whether the counts held exactly, from the
// answers and from the tables: 3 entrances and 14 deductions per person, no balance below 0,
// exactly 10 people inside the car park and each of them let in once, every scan stored once.
//   node bench/gate.mjs --race [--db sqlite|mariadb]
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { keepAliveLoad, seedGateAction, startBench } from './lib.mjs';

/** A scan by the device of `token`: POST of its JSON body. */
const scan = (token, body) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', authorization: token },
  body: JSON.stringify(body),
});

if (process.argv[2] === '--client') {
  const { kind, url, total, concurrency, tokens, codes, race } = await new Promise((r) => process.once('message', r));
  let request; // none: GETs of `url` (the bare server)
  if (kind === 'scan') {
    const run = Date.now().toString(36);
    request = (i) =>
      scan(tokens[i % tokens.length], {
        code: codes[(i * 7919) % codes.length],
        direction: 'entry',
        nonce: `b${run}-${i}`,
      });
  }
  let collect;
  const answers = [];
  if (kind === 'race') {
    // device i % 8: the first half enters, the second half pays; every device sees every person
    const { kinds, amount } = race;
    const run = Date.now().toString(36);
    request = (i) => {
      const device = i % tokens.length;
      const pay = kinds[device] === 'pay';
      return scan(tokens[device], {
        code: codes[Math.floor(i / tokens.length) % codes.length],
        direction: 'entry',
        nonce: `r${run}-${i}`,
        ...(pay ? { amount } : {}),
      });
    };
    collect = (i, status, text) => {
      let data = null;
      try {
        data = JSON.parse(text).data ?? null;
      } catch {}
      answers.push([
        kinds[i % tokens.length],
        Math.floor(i / tokens.length) % codes.length,
        status,
        data?.allowed ?? null,
        data?.reason ?? null,
      ]);
    };
  }
  const result = await keepAliveLoad({ url, total, concurrency, request, collect });
  process.send({ ...result, answers }, () => process.exit(0));
} else {
  const { values } = parseArgs({
    options: {
      db: { type: 'string', default: 'sqlite' },
      rows: { type: 'string', default: '100000' },
      scans: { type: 'string', default: '10000' },
      concurrency: { type: 'string' },
      race: { type: 'boolean', default: false },
      /** a file: the server's CPU profile of the measured scans only (not the seed or the bare run) */
      profile: { type: 'string' },
    },
  });
  const ROWS = Number(values.rows);
  const SCANS = Number(values.scans);
  const CONCURRENCY = Number(values.concurrency ?? (values.race ? 1000 : 32));
  // the client in its own process: this process's CPU time is then the server's
  const inWorker = (data) =>
    new Promise((resolve, reject) => {
      const child = fork(fileURLToPath(import.meta.url), ['--client']);
      let cpu0;
      let elu0;
      child.once('message', (result) => {
        const cpu = process.cpuUsage(cpu0);
        // the event loop's busy time: CPU plus what blocks the only thread (a synchronous fsync)
        const elu = performance.eventLoopUtilization(elu0);
        resolve({ ...result, cpuMs: (cpu.user + cpu.system) / 1000 / data.total, busyMs: elu.active / data.total });
      });
      child.once('error', reject);
      child.once('spawn', () => {
        cpu0 = process.cpuUsage();
        elu0 = performance.eventLoopUtilization();
        child.send(data);
      });
    });

  if (values.race) {
    await race(values.db, { rows: Math.min(ROWS, 10_000), scans: SCANS, concurrency: CONCURRENCY, inWorker });
    process.exit(process.exitCode ?? 0);
  }

  // bare Fastify, same client, same machine, same run
  const Fastify = (await import('fastify')).default;
  const bare = Fastify();
  bare.get('/', async () => ({ hello: 'world' }));
  await bare.listen({ port: 0, host: '127.0.0.1' });
  const bareUrl = `http://127.0.0.1:${bare.server.address().port}/`;
  await inWorker({ kind: 'get', url: bareUrl, total: 2000, concurrency: CONCURRENCY });
  const hello = await inWorker({ kind: 'get', url: bareUrl, total: SCANS * 2, concurrency: CONCURRENCY });
  await bare.close();

  const { ds, base, call, subjectId, now, stop } = await startBench(values.db);
  const {
    action,
    group,
    seconds: seededIn,
  } = await seedGateAction(
    { ds, call, subjectId, now },
    {
      name: 'Gate bench',
      rows: ROWS,
      prefix: 'GB',
    },
  );
  console.log(`seeded ${ROWS} accreditations in ${seededIn.toFixed(1)} s`);
  const template = (
    await call('POST', '/device-template', {
      name: 'Main gate',
      actionId: action.id,
      data: { mode: 1, rules: [{ groupId: group.id, entrances: 0 }] },
    })
  ).data;
  const key = (await call('GET', '/device/key')).data;
  const device = base.replace('/api/admin/v1', '/api/device/v1');
  const tokens = [];
  for (let i = 0; i < 8; i++) {
    const res = await fetch(`${device}/pair`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code: key.bc, uid: `bench-${i}`, name: `Gate ${i}` }),
    });
    const { token, device: d } = (await res.json()).data;
    await call('PUT', `/device/${d.id}`, { name: `Gate ${i}`, uid: `bench-${i}`, deviceTemplateId: template.id });
    tokens.push(`Bearer ${token}`);
  }
  const codes = Array.from({ length: ROWS }, (_, i) => `GB${String(i + 1).padStart(14, '0')}`);
  const scanUrl = `${device}/scan`;
  await inWorker({ kind: 'scan', url: scanUrl, total: 1000, concurrency: CONCURRENCY, tokens, codes }); // warm-up
  const profiler = values.profile ? await startProfile() : null;
  const gate = await inWorker({ kind: 'scan', url: scanUrl, total: SCANS, concurrency: CONCURRENCY, tokens, codes });
  if (profiler) await profiler.stop(values.profile);
  const [{ n }] = await ds.query('SELECT COUNT(*) AS n FROM entrance WHERE deviceTemplateId = ?', [template.id]);
  await stop();

  const f = (x) => x.toFixed(1);
  const load1 = os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');
  console.log(`\n${values.db}, ${ROWS} accreditations, 8 devices, ${CONCURRENCY} in flight, load average ${load1}`);
  const path =
    process.env.ACCREDO_SCAN_PATH === 'nest'
      ? 'Nest pipeline'
      : process.env.ACCREDO_SCAN_PATH === 'fastify'
        ? 'lean handler in Fastify'
        : 'raw path';
  const us = (x) => Math.round(x.cpuMs * 1000);
  const busy = (x) => Math.round(x.busyMs * 1000);
  console.log(
    `| run | req/s | p50 ms | p99 ms | server CPU µs/req | event loop busy µs/req | failed |\n|---|---|---|---|---|---|---|`,
  );
  console.log(
    `| bare Fastify hello-world | ${hello.perSecond} | ${f(hello.p50)} | ${f(hello.p99)} | ${us(hello)} | ${busy(hello)} | ${hello.failed} |`,
  );
  console.log(
    `| POST api/device/v1/scan, ${path} (${SCANS}) | ${gate.perSecond} | ${f(gate.p50)} | ${f(gate.p99)} | ${us(gate)} | ${busy(gate)} | ${gate.failed} |`,
  );
  console.log(
    `ratio scan/bare: ${(gate.perSecond / hello.perSecond).toFixed(2)} by req/s; one core would decide ~${Math.round(1e6 / us(gate))} scans/s by server CPU (bare: ~${Math.round(1e6 / us(hello))}/s)`,
  );
  console.log(`passages written: ${n}`);
}

/** The inspector's CPU profiler over this process (the server): stop(file) writes a .cpuprofile. */
async function startProfile() {
  const { Session } = await import('node:inspector/promises');
  const { writeFileSync } = await import('node:fs');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  await session.post('Profiler.start');
  return {
    async stop(file) {
      const { profile } = await session.post('Profiler.stop');
      writeFileSync(file, JSON.stringify(profile));
      session.disconnect();
      console.log(`profile of the measured scans: ${file}`);
    },
  };
}

/** --race: concurrent scans of the same people over 8 devices; prints whether the counts held. */
async function race(db, { rows, scans, concurrency, inWorker }) {
  const PEOPLE = 20;
  const LIMIT = 3;
  const BALANCE = 100;
  const AMOUNT = 7;
  const KINDS = ['entry', 'entry', 'entry', 'pay', 'pay', 'pay', 'park', 'park'];
  const DEVICES = KINDS.length;
  const CAPACITY = 10;
  const { ds, base, call, subjectId, now, stop } = await startBench(db);
  const { action, group } = await seedGateAction(
    { ds, call, subjectId, now },
    { name: 'Gate race', rows, prefix: 'GR' },
  );
  await ds.query('UPDATE action SET isCredit = 1 WHERE id = ?', [action.id]);
  // the car park (extension 2): every one of the PEOPLE holds a pass, CAPACITY places
  await ds.query('UPDATE subject SET extensions = ? WHERE id = ?', ['[1,2]', subjectId]);
  await call('POST', `/action-extension/2/${action.id}`, { active: true });
  const label = { cs: 'P1', sk: '', en: '', de: '' };
  const area = (
    await call('PUT', `/action-extension/${action.id}/2`, { items: [{ label, capacity: null, places: [] }] })
  ).data.items[0];
  await ds.query('UPDATE accreditation SET credit = ? WHERE actionId = ? AND customId <= ?', [
    BALANCE,
    action.id,
    PEOPLE,
  ]);
  const entryTemplate = (
    await call('POST', '/device-template', {
      name: 'Race gate',
      actionId: action.id,
      data: { mode: 1, rules: [{ groupId: group.id, entrances: LIMIT }] },
    })
  ).data;
  const tillTemplate = (
    await call('POST', '/device-template', {
      name: 'Race till',
      actionId: action.id,
      data: { mode: 2, rules: [], globalRule: { enabled: true } },
    })
  ).data;
  const parkTemplate = (
    await call('POST', '/device-template', {
      name: 'Race barrier',
      actionId: action.id,
      data: { mode: 5, rules: [], globalRule: { enabled: true } },
    })
  ).data;
  const key = (await call('GET', '/device/key')).data;
  const deviceBase = base.replace('/api/admin/v1', '/api/device/v1');
  const tokens = [];
  for (let i = 0; i < DEVICES; i++) {
    const res = await fetch(`${deviceBase}/pair`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code: key.bc, uid: `race-${i}`, name: `Race ${i}` }),
    });
    const { token, device: d } = (await res.json()).data;
    const tpl = { entry: entryTemplate, pay: tillTemplate, park: parkTemplate }[KINDS[i]];
    await call('PUT', `/device/${d.id}`, { name: `Race ${i}`, uid: `race-${i}`, deviceTemplateId: tpl.id });
    tokens.push(`Bearer ${token}`);
  }
  const people = await ds.query(
    'SELECT id, bc FROM accreditation WHERE actionId = ? AND customId <= ? ORDER BY customId',
    [action.id, PEOPLE],
  );
  const codes = people.map((p) => p.bc);
  await call('PUT', `/action-extension/2/${action.id}/users`, {
    usersIds: people.map((p) => p.id),
    actionId: action.id,
    items: [{ itemId: area.id }],
  });
  await call('PUT', `/action-extension/${action.id}/2`, { items: [{ ...area, capacity: CAPACITY, places: [] }] });
  const result = await inWorker({
    kind: 'race',
    url: `${deviceBase}/scan`,
    total: scans,
    concurrency,
    tokens,
    codes,
    race: { kinds: KINDS, amount: AMOUNT },
  });

  // what the answers say, per person and kind
  const per = (kind, k) => result.answers.filter((a) => a[0] === kind && a[1] === k);
  const sent = (kind, k) =>
    Array.from({ length: scans }, (_, i) => i).filter(
      (i) => KINDS[i % DEVICES] === kind && Math.floor(i / DEVICES) % codes.length === k,
    ).length;
  const checks = [];
  const check = (what, ok) => checks.push({ what, ok });
  let entriesAllowed = 0;
  let paysAllowed = 0;
  const ids = people.map((p) => p.id);
  const entrance = await ds.query(
    `SELECT accreditationId AS id, COUNT(*) AS n FROM entrance WHERE deviceTemplateId = ? AND type = 1 GROUP BY accreditationId`,
    [entryTemplate.id],
  );
  const tx = await ds.query(
    `SELECT accreditationId AS id, COUNT(*) AS n, SUM(price) AS s FROM credit_transaction WHERE type = 2 AND accreditationId IN (${ids.map(() => '?').join(',')}) GROUP BY accreditationId`,
    ids,
  );
  const balances = await ds.query(
    `SELECT id, credit FROM accreditation WHERE id IN (${ids.map(() => '?').join(',')})`,
    ids,
  );
  const byId = (rows, f) => new Map(rows.map((r) => [Number(r.id), f(r)]));
  const entranceOf = byId(entrance, (r) => Number(r.n));
  const txOf = byId(tx, (r) => ({ n: Number(r.n), s: Number(r.s) }));
  const balanceOf = byId(balances, (r) => Number(r.credit));
  let entriesExact = true;
  let paysExact = true;
  let minBalance = Number.POSITIVE_INFINITY;
  for (let k = 0; k < codes.length; k++) {
    const id = ids[k];
    const wantEntries = Math.min(LIMIT, sent('entry', k));
    const wantPays = Math.min(Math.floor(BALANCE / AMOUNT), sent('pay', k));
    const e = per('entry', k).filter((a) => a[3] === true).length;
    const p = per('pay', k).filter((a) => a[3] === true).length;
    entriesAllowed += e;
    paysAllowed += p;
    if (e !== wantEntries || (entranceOf.get(id) ?? 0) !== wantEntries) entriesExact = false;
    const t = txOf.get(id) ?? { n: 0, s: 0 };
    const bal = balanceOf.get(id);
    minBalance = Math.min(minBalance, bal);
    if (p !== wantPays || t.n !== wantPays || t.s !== -AMOUNT * wantPays || bal !== BALANCE - AMOUNT * wantPays)
      paysExact = false;
  }
  // the car park: each person in at most once (no exit is sent), CAPACITY of them in all
  const parkAllowed = result.answers.filter((a) => a[0] === 'park' && a[3] === true);
  const parkedPeople = new Set(parkAllowed.map((a) => a[1]));
  const [{ n: insideRows }] = await ds.query(
    'SELECT COUNT(*) AS n FROM accreditation_extension WHERE itemId = ? AND inside = 1',
    [area.id],
  );
  const refusedPark = new Set(result.answers.filter((a) => a[0] === 'park' && a[3] === false).map((a) => a[4]));
  const refusedEntry = new Set(result.answers.filter((a) => a[0] === 'entry' && a[3] === false).map((a) => a[4]));
  const refusedPay = new Set(result.answers.filter((a) => a[0] === 'pay' && a[3] === false).map((a) => a[4]));
  const [{ n: stored }] = await ds.query('SELECT COUNT(*) AS n FROM device_scan WHERE nonce LIKE ?', ['r%']);
  const failed = result.answers.filter((a) => a[2] !== 200).length;
  check(`entries: ${entriesAllowed} allowed, ${LIMIT} per person in answers and entrance rows`, entriesExact);
  check(
    `refused entries only ENTRANCES_USED (${[...refusedEntry].join(', ') || 'none'})`,
    [...refusedEntry].every((r) => r === 'ENTRANCES_USED'),
  );
  check(
    `credit: ${paysAllowed} deductions of ${AMOUNT}, ${Math.floor(BALANCE / AMOUNT)} per person in answers, transactions and balances; lowest balance ${minBalance}`,
    paysExact && minBalance >= 0,
  );
  check(
    `refused deductions only CREDIT_INSUFFICIENT (${[...refusedPay].join(', ') || 'none'})`,
    [...refusedPay].every((r) => r === 'CREDIT_INSUFFICIENT'),
  );
  check(
    `car park: ${parkAllowed.length} let in (${parkedPeople.size} people, each once), ${Number(insideRows)} inside, capacity ${CAPACITY}`,
    parkAllowed.length === CAPACITY && parkedPeople.size === CAPACITY && Number(insideRows) === CAPACITY,
  );
  check(
    `refused barrier scans only PARKING_FULL or PARKING_ALREADY_INSIDE (${[...refusedPark].join(', ') || 'none'})`,
    [...refusedPark].every((r) => r === 'PARKING_FULL' || r === 'PARKING_ALREADY_INSIDE'),
  );
  check(
    `every scan answered 200 (${failed} not) and stored once (${Number(stored)} rows)`,
    failed === 0 && Number(stored) === scans,
  );
  await stop();
  const held = checks.every((c) => c.ok);
  console.log(
    `\nrace ${db}: ${scans} scans of ${codes.length} people over ${DEVICES} devices (3 entry, limit ${LIMIT}; 3 tills, ${AMOUNT} of ${BALANCE}; 2 barriers, ${CAPACITY} places), ${concurrency} in flight, ${result.seconds.toFixed(1)} s, load average ${os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}`,
  );
  for (const c of checks) console.log(`  ${c.ok ? 'held' : 'BROKEN'}: ${c.what}`);
  console.log(held ? `race ${db}: counts held exactly` : `race ${db}: COUNTS DID NOT HOLD`);
  if (!held) process.exitCode = 1;
}
