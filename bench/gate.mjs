// Benchmark (issue 11): online gate decisions over HTTP. Seeds 100,000 accreditations of one action
// (each in a group), a mode-1 template with unlimited entrances (so every scan writes its passage),
// pairs 8 devices through the protocol, then sends scans from a worker thread (its own core) with a
// number of requests in flight, each device in turn, random people, unique nonces. Prints
// decisions/s and p50/p99 latency, next to a bare Fastify hello-world measured by the same client
// in the same run, and the server process's CPU time per request (the client is a child process,
// so this is the server's own cost: on a loaded machine the wall-clock figures are the scheduler's).
// ACCREDO_SCAN_PATH=nest measures the scan through Nest's pipeline instead of the lean handler.
//
//   node bench/gate.mjs [--db sqlite|mariadb] [--rows 100000] [--scans 10000] [--concurrency 32]
// (build first: npm run build). MariaDB at TEST_MARIADB_URL (default mysql://root@127.0.0.1:3306).
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import http from 'node:http';
import os from 'node:os';
import { parseArgs } from 'node:util';

/** The client: `total` requests, `concurrency` in flight, one keep-alive agent. */
async function load({ url, total, concurrency, requests }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const target = new URL(url);
  const latencies = [];
  let next = 0;
  let failed = 0;
  const one = (i) =>
    new Promise((resolve) => {
      const r = requests ? requests(i) : null;
      const t0 = performance.now();
      const req = http.request(
        {
          agent,
          host: target.hostname,
          port: target.port,
          path: target.pathname,
          method: r ? 'POST' : 'GET',
          headers: r ? { 'content-type': 'application/json', authorization: r.token } : {},
        },
        (res) => {
          res.resume();
          res.on('end', () => {
            latencies.push(performance.now() - t0);
            if (res.statusCode !== 200) failed++;
            resolve();
          });
        },
      );
      req.on('error', () => {
        failed++;
        resolve();
      });
      req.end(r ? r.body : undefined);
    });
  const start = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) await one(next++);
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const q = (p) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))];
  return { perSecond: Math.round(total / seconds), p50: q(0.5), p99: q(0.99), failed };
}

if (process.argv[2] === '--client') {
  const { kind, url, total, concurrency, tokens, codes } = await new Promise((r) => process.once('message', r));
  let requests = null;
  if (kind === 'scan') {
    const run = Date.now().toString(36);
    requests = (i) => ({
      token: tokens[i % tokens.length],
      body: JSON.stringify({
        code: codes[(i * 7919) % codes.length],
        direction: 'entry',
        nonce: `b${run}-${i}`,
      }),
    });
  }
  process.send(await load({ url, total, concurrency, requests }), () => process.exit(0));
} else {
  const { values } = parseArgs({
    options: {
      db: { type: 'string', default: 'sqlite' },
      rows: { type: 'string', default: '100000' },
      scans: { type: 'string', default: '10000' },
      concurrency: { type: 'string', default: '32' },
    },
  });
  const { seedGateAction, startBench } = await import('./lib.mjs');
  const ROWS = Number(values.rows);
  const SCANS = Number(values.scans);
  const CONCURRENCY = Number(values.concurrency);
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
  const gate = await inWorker({ kind: 'scan', url: scanUrl, total: SCANS, concurrency: CONCURRENCY, tokens, codes });
  const [{ n }] = await ds.query('SELECT COUNT(*) AS n FROM entrance WHERE deviceTemplateId = ?', [template.id]);
  await stop();

  const f = (x) => x.toFixed(1);
  const load1 = os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');
  console.log(`\n${values.db}, ${ROWS} accreditations, 8 devices, ${CONCURRENCY} in flight, load average ${load1}`);
  const path = process.env.ACCREDO_SCAN_PATH === 'nest' ? 'Nest pipeline' : 'lean handler';
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
