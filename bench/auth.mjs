// Benchmark (issue 16): the request path of a cheap signed-in call, GET api/admin/v1/authorization
// (or, with --route check, the check by code GET api/admin/v1/user/check/{bc} of one of 1,000
// people in groups and zones: bench/check.mjs), next to a bare Fastify hello-world in the same run
// (and, for the check on MariaDB, the same bare server answering after one `SELECT 1` on the app's
// pool: the floor of any call that reads MariaDB once, at the same concurrency on the same cores). The client is a child process (its own core,
// one keep-alive agent, --concurrency requests in flight); the two servers are measured in
// interleaved rounds (bare, app, app, bare, ...) and the medians of the rounds are printed: req/s,
// p50/p99 latency, the CPU per request of the server process, of the client and (MariaDB on this
// machine) of the database server, how many of the machine's cores the three kept busy (near all of
// them: the figures are bounded by the machine, not by one party's wait), the ratio app/bare, and
// the SQL statements one call runs (counted on the driver's query runners over 100 sequential calls).
//
//   node bench/auth.mjs [--db sqlite|mariadb] [--route authorization|check] [--rounds 7] [--requests 5000]
//                       [--concurrency 50] [--profile FILE: the CPU profile of one more round of the route]
// (build first: npm run build; BENCH_BACKEND_DIST=<dir> measures another build, e.g. the one before
// a change; ACCREDO_ADMIN_PATH=nest measures these routes through Nest's pipeline instead of the
// lean handlers of backend/src/modules/session/lean-admin.ts, =fastify the lean handlers inside
// Fastify without their raw path in front of it, common/raw-front.ts). MariaDB at TEST_MARIADB_URL (default mysql://root@127.0.0.1:3306).
import fs from 'node:fs';
import { fork } from 'node:child_process';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { countStatements, databaseCpuMs, keepAliveLoad, startBench } from './lib.mjs';

if (process.argv[2] === '--client') {
  // one child serves every round: measurements arrive as messages, 'exit' ends it; `total` GETs,
  // `concurrency` in flight, to `paths` in turn when given (the check: a different person each
  // time, as at a desk)
  process.on('message', async (job) => {
    if (job === 'exit') process.exit(0);
    const { url, total, concurrency, headers, paths } = job;
    const cpu0 = process.cpuUsage();
    const request = (i) => ({ path: paths?.[i % paths.length], headers });
    const result = await keepAliveLoad({ url, total, concurrency, request });
    const cpu = process.cpuUsage(cpu0);
    process.send({ ...result, clientCpuUs: (cpu.user + cpu.system) / job.total });
  });
} else {
  const { values } = parseArgs({
    options: {
      db: { type: 'string', default: 'sqlite' },
      rounds: { type: 'string', default: '7' },
      requests: { type: 'string', default: '5000' },
      concurrency: { type: 'string', default: '50' },
      route: { type: 'string', default: 'authorization' },
      /** a file: the server's CPU profile of one more round of the route alone, after the measured ones */
      profile: { type: 'string' },
    },
  });
  if (!['authorization', 'check'].includes(values.route)) throw new Error('--route authorization|check');
  const ROUNDS = Number(values.rounds);
  const REQUESTS = Number(values.requests);
  const CONCURRENCY = Number(values.concurrency);

  const child = fork(fileURLToPath(import.meta.url), ['--client']);
  await new Promise((r) => child.once('spawn', r));
  // The database server's CPU (MariaDB runs on this machine), so that the table shows where the
  // machine's cores went.
  const dbMs = () => (values.db === 'mariadb' ? databaseCpuMs() : null) ?? Number.NaN;
  /**
   * One measurement by the client, with this process's (the servers') CPU, the client's own and the
   * database server's per request.
   */
  const measure = (job) =>
    new Promise((resolve) => {
      const cpu0 = process.cpuUsage();
      const db0 = dbMs();
      child.once('message', (result) => {
        const cpu = process.cpuUsage(cpu0);
        const dbUs = ((dbMs() - db0) * 1000) / job.total;
        resolve({ ...result, cpuUs: (cpu.user + cpu.system) / job.total, dbUs });
      });
      child.send(job);
    });

  const Fastify = (await import('fastify')).default;
  const bare = Fastify();
  bare.get('/', async () => ({ hello: 'world' }));
  // The floor of one database round trip (MariaDB, --route check): the bare server answering with
  // `SELECT 1` executed on the app's own mysql2 pool, so that the check's figures can be read
  // against what any call that reads MariaDB once costs on this machine at this concurrency.
  let roundTripPool = null;
  bare.get(
    '/round-trip',
    () =>
      new Promise((ok, fail) =>
        roundTripPool.execute('SELECT 1 AS one', [], (e, rows) => (e ? fail(e) : ok({ one: rows[0].one }))),
      ),
  );
  await bare.listen({ port: 0, host: '127.0.0.1' });
  const bareJob = { url: `http://127.0.0.1:${bare.server.address().port}/`, headers: {} };
  const roundTripJob = { url: `http://127.0.0.1:${bare.server.address().port}/round-trip`, headers: {} };

  const { ds, base, token, call, stop } = await startBench(values.db);
  const withFloor = values.db === 'mariadb' && values.route === 'check';
  if (withFloor) roundTripPool = ds.driver.pool;
  let path = '/authorization';
  if (values.route === 'check') {
    // 1,000 people of one action, each in two groups and a zone; the calls check them in turn (a
    // desk checks one badge after another: 50 checks in flight are 50 people)
    const ml = (cs) => ({ cs, sk: '', en: '', de: '' });
    const action = (await call('POST', '/action', { name: ml('Check bench') })).data;
    const zone = (await call('POST', '/zone', { name: 'Hall', actionId: action.id })).data;
    const groups = [];
    for (const name of ['Crew', 'Press'])
      groups.push((await call('POST', '/groups', { name, actionId: action.id })).data);
    const codes = [];
    for (let i = 0; i < 1000; i++) {
      const person = (
        await call('POST', '/user', {
          actionId: action.id,
          firstname: `F${i}`,
          lastname: `L${i}`,
          email: `check${i}@example.com`,
          groupIds: groups.map((g) => g.id),
          zones: [zone.id],
          days: [],
          customField: [],
        })
      ).data;
      codes.push(person.bc);
    }
    path = codes.map((bc) => `${new URL(base).pathname}/user/check/${bc}`);
  }
  const label = `GET api/admin/v1${values.route === 'check' ? '/user/check/{bc}' : '/authorization'}`;
  const authJob = Array.isArray(path)
    ? { url: base, paths: path, headers: { authorization: token } }
    : { url: `${base}${path}`, headers: { authorization: token } };

  // statements per call: counted on the driver (bench/lib.mjs) over 100 sequential calls
  const statements = await countStatements(ds);
  const before = statements.count();
  for (let i = 0; i < 100; i++) {
    const url = authJob.paths ? new URL(authJob.paths[i], base).href : authJob.url;
    const res = await fetch(url, { headers: authJob.headers });
    if (!res.ok) throw new Error(`${label}: ${res.status} ${await res.text()}`);
    await res.arrayBuffer();
  }
  const perCall = (statements.count() - before) / 100;
  // and under load: the route's warm-up round, still counted (calls that arrive together may
  // share a statement: the check on MariaDB, database/read-batch.ts)
  const loaded = statements.count();
  await measure({ ...authJob, total: 2000, concurrency: CONCURRENCY });
  const perCallLoaded = (statements.count() - loaded) / 2000;
  statements.stop();

  // warm-up of each, then interleaved rounds
  const jobs = { bare: bareJob, auth: authJob, ...(withFloor ? { floor: roundTripJob } : {}) };
  for (const job of Object.values(jobs)) await measure({ ...job, total: 2000, concurrency: CONCURRENCY });
  const runs = Object.fromEntries(Object.keys(jobs).map((k) => [k, []]));
  for (let r = 0; r < ROUNDS; r++) {
    const order = r % 2 ? Object.keys(jobs).reverse() : Object.keys(jobs);
    for (const which of order)
      runs[which].push(await measure({ ...jobs[which], total: REQUESTS, concurrency: CONCURRENCY }));
  }
  if (values.profile) {
    const { Session } = await import('node:inspector/promises');
    const session = new Session();
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 100 });
    await session.post('Profiler.start');
    await measure({ ...authJob, total: REQUESTS, concurrency: CONCURRENCY });
    const { profile } = await session.post('Profiler.stop');
    fs.writeFileSync(values.profile, JSON.stringify(profile));
    session.disconnect();
  }
  child.send('exit');
  await bare.close();
  await stop();

  const median = (xs) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  };
  const summary = (list) => ({
    perSecond: Math.round(median(list.map((x) => x.perSecond))),
    p50: median(list.map((x) => x.p50)),
    p99: median(list.map((x) => x.p99)),
    cpuUs: Math.round(median(list.map((x) => x.cpuUs))),
    clientUs: Math.round(median(list.map((x) => x.clientCpuUs))),
    dbUs: Math.round(median(list.map((x) => x.dbUs))),
    // the cores the three (client, server, database) kept busy between them in that round
    cores: median(
      list.map((x) => ((x.cpuUs + x.clientCpuUs + (Number.isNaN(x.dbUs) ? 0 : x.dbUs)) * x.perSecond) / 1e6),
    ),
    failed: list.reduce((n, x) => n + x.failed, 0),
    spread: `${Math.min(...list.map((x) => x.perSecond))}–${Math.max(...list.map((x) => x.perSecond))}`,
  });
  const b = summary(runs.bare);
  const a = summary(runs.auth);
  const f = (x) => x.toFixed(1);
  const load1 = os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');
  const build =
    (process.env.BENCH_BACKEND_DIST ? ` (build ${process.env.BENCH_BACKEND_DIST})` : '') +
    (process.env.ACCREDO_ADMIN_PATH === 'nest' ? ' (Nest pipeline)' : '') +
    (process.env.ACCREDO_ADMIN_PATH === 'fastify' ? ' (inside Fastify, no raw path)' : '');
  console.log(
    `\n${values.db}${build}: ${ROUNDS} interleaved rounds of ${REQUESTS} GETs, ${CONCURRENCY} in flight, medians; load average ${load1}`,
  );
  const db = (x) => (Number.isNaN(x.dbUs) ? '–' : x.dbUs);
  console.log(
    '| run | req/s (median) | rounds min–max | p50 ms | p99 ms | server CPU µs/req | client CPU µs/req | database CPU µs/req | cores busy | failed |\n|---|---|---|---|---|---|---|---|---|---|',
  );
  for (const [name, x, measuresDb] of [
    ['bare Fastify hello-world', b, false],
    ...(withFloor ? [['bare Fastify + one MariaDB round trip (SELECT 1)', summary(runs.floor), true]] : []),
    [label, a, true],
  ])
    console.log(
      `| ${name} | ${x.perSecond} | ${x.spread} | ${f(x.p50)} | ${f(x.p99)} | ${x.cpuUs} | ${x.clientUs} | ${measuresDb ? db(x) : '–'} | ${x.cores.toFixed(2)} of ${os.availableParallelism()} | ${x.failed} |`,
    );
  const ratio = a.perSecond / b.perSecond;
  const target = values.route === 'check' ? 0.1 : 0.15;
  console.log(
    `ratio ${values.route}/bare: ${ratio.toFixed(3)} by req/s, ${(b.cpuUs / a.cpuUs).toFixed(3)} by server CPU per request (target ≥ ${target}, p99 < 10 ms: ${ratio >= target && a.p99 < 10 ? 'met' : 'not met'}); ${f(perCall)} SQL statements per call alone, ${perCallLoaded.toFixed(2)} with ${CONCURRENCY} in flight`,
  );
}
