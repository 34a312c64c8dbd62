// Benchmark (issue 5): public online registration under load. Seeds a web channel (authorization by
// one external code with unlimited uses, so every registration also counts a use and writes a log
// row; an after-registration mail), then keeps 200 virtual visitors registering for N seconds and
// prints sustained registrations per second with p50/p95/p99 latency. Afterwards it checks that no
// registration was lost or duplicated: 201 answers == rows == counted code uses == log rows.
// Beside it, in the same run and by the same visitors, a bare Fastify POST (it parses the JSON
// body and answers 201), and the ratio; and the SQL statements one registration runs (counted on
// the driver over 20 sequential registrations before the load, and over the load).
//   node bench/online-registration.mjs [--db sqlite|mariadb] [--visitors 200] [--seconds 20]
//                                      [--auth code|none] [--mail yes|no]   (build first: npm run build)
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { countStatements, databaseCpuMs, startBench } from './lib.mjs';

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: 'sqlite' },
    visitors: { type: 'string', default: '200' },
    seconds: { type: 'string', default: '20' },
    auth: { type: 'string', default: 'code' },
    mail: { type: 'string', default: 'yes' },
    // prints the SQL of one registration (and what the mail worker ran meanwhile), SQLite only
    'show-statements': { type: 'boolean', default: false },
  },
});
const VISITORS = Number(values.visitors);

/**
 * CPU time (ms) of this process's main thread, which runs the server and the mail worker (the
 * visitors have their own thread): from /proc, so other processes' load does not count as it does
 * in the event loop's busy time; null where /proc is not there.
 */
function mainThreadCpu() {
  try {
    const stat = fs.readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime (fields 14 and 15 of stat) in clock ticks of 10 ms
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}
const SECONDS = Number(values.seconds);
const withCode = values.auth === 'code';
const { base, call, ds, stop } = await startBench(values.db);
const online = base.replace('/api/admin/v1', '/api/online/v1');

// ---- seed: fields, a group with a zone, a mail template, the action and its channel ----
const ml = (cs) => ({ cs, sk: '', en: '', de: '' });
const phone = (await call('POST', '/custom-field', { name: 'phone', label: ml('Telefon'), customFieldType: 8 })).data;
const company = (await call('POST', '/custom-field', { name: 'company', label: ml('Firma'), customFieldType: 1 })).data;
const mail =
  values.mail === 'yes'
    ? (
        await call('POST', '/mail-template', {
          name: 'Thanks',
          type: 1,
          subjectFrom: 'Registration',
          html: '<p>Hello {{firstname}}</p>',
        })
      ).data
    : null;
const action = (
  await call('POST', '/action', {
    name: ml('Bench fair'),
    afterMailTemplateId: mail?.id ?? null,
    customField: [
      { id: phone.id, isMandatory: true },
      { id: company.id, notShow: true, defaultValue: 'web' },
    ],
    checkingAttributes: [{ id: 'gdpr', label: ml('GDPR'), required: true }],
  })
).data;
const zone = (await call('POST', '/zone', { name: 'Hall', actionId: action.id })).data;
const group = (await call('POST', '/groups', { name: 'Visitors', actionId: action.id, zoneId: [zone.id] })).data;
const channel = (
  await call('POST', '/web-channel', {
    name: 'Bench',
    actionId: action.id,
    groupsId: [group.id],
    ...(withCode
      ? {
          withAuthorization: true,
          authorizationType: 3,
          numberUseExtCode: 0,
          externalCode: [{ code: 'BENCH', numberOfUse: 0 }],
        }
      : {}),
  })
).data;

let token;
if (withCode) {
  const res = await fetch(`${online}/web-channel/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ channelKey: channel.channelKey, code: 'bench' }),
  });
  token = (await res.json()).data.token;
}

// ---- load: every visitor registers again and again until the time is up ----
// The visitors run in a worker thread with a connection each (as browsers would): sharing the
// server's event loop, the newest connections starve and the figures measure the load generator.
const visit = (url, seconds) =>
  new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./online-registration-visitors.mjs', import.meta.url), {
      workerData: { url, token: token ?? null, phoneId: phone.id, visitors: VISITORS, seconds },
    });
    worker.once('message', resolve);
    worker.once('error', reject);
  });
const registerUrl = `${online}/accreditation/${channel.channelKey}`;

// statements per registration: 20 sequential registrations, counted on the driver
const statements = await countStatements(ds);
const counted0 = statements.count();
for (let i = 0; i < 20; i++) {
  const res = await fetch(registerUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { 'authorization-online': token } : {}) },
    body: JSON.stringify({
      firstname: 'Warm',
      lastname: `Up${i}`,
      email: `warmup${i}@example.com`,
      customField: [{ id: phone.id, value: '+420 601 234 567' }],
      checkingAttributes: { gdpr: true },
    }),
  });
  if (res.status !== 201) throw new Error(`warm-up registration: ${res.status} ${await res.text()}`);
}
const perRegistration = (statements.count() - counted0) / 20;
statements.stop();

const shown = values['show-statements'] && ds.options.type === 'better-sqlite3';
if (shown) {
  // the warm-up's mails sent first, so the list is this registration's and its own mail's
  for (let i = 0; i < 100; i++) {
    const open = await ds.query(`SELECT COUNT(*) AS n FROM mail_queue WHERE status IN ('waiting', 'sending')`);
    if (!Number(open[0].n)) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const proto = Object.getPrototypeOf(ds.driver.databaseConnection.prepare('SELECT 1'));
  const originals = {};
  const seen = [];
  for (const name of ['all', 'get', 'run', 'iterate']) {
    originals[name] = proto[name];
    proto[name] = function (...args) {
      seen.push(this.source.replace(/\s+/g, ' ').slice(0, 160));
      return originals[name].apply(this, args);
    };
  }
  await fetch(registerUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { 'authorization-online': token } : {}) },
    body: JSON.stringify({
      firstname: 'Shown',
      lastname: 'Statements',
      email: 'shown@example.com',
      customField: [{ id: phone.id, value: '+420 601 234 567' }],
      checkingAttributes: { gdpr: true },
    }),
  });
  await new Promise((r) => setTimeout(r, 500));
  for (const name of Object.keys(originals)) proto[name] = originals[name];
  console.log(
    `statements of one registration (with the mail worker's):\n${seen.map((q, i) => `${i + 1}. ${q}`).join('\n')}`,
  );
}

// the baseline: a bare Fastify POST taking the same bodies from the same visitors, before the run
const Fastify = (await import('fastify')).default;
const bare = Fastify();
bare.post('/', async (req, reply) => reply.code(201).send({ data: { id: 1, received: typeof req.body } }));
await bare.listen({ port: 0, host: '127.0.0.1' });
const bareElu0 = performance.eventLoopUtilization();
const bareCpu0 = mainThreadCpu();
const bareRun = await visit(`http://127.0.0.1:${bare.server.address().port}/`, Math.min(SECONDS, 5));
const bareElu = performance.eventLoopUtilization(bareElu0);
const bareCpu = bareCpu0 === null ? null : mainThreadCpu() - bareCpu0;
await bare.close();
const bareCreated = bareRun.statuses.get(201) ?? 0;

const elu0 = performance.eventLoopUtilization();
const cpu0 = mainThreadCpu();
const db0 = values.db === 'mariadb' ? databaseCpuMs() : null;
// and under the load: reads that arrive together may share a statement (database/read-batch.ts)
const loadedStatements = await countStatements(ds);
const { latencies, statuses, elapsed } = await visit(registerUrl, SECONDS);
const underLoad = loadedStatements.count();
loadedStatements.stop();
const dbUsed = db0 === null ? null : databaseCpuMs() - db0;
const elu = performance.eventLoopUtilization(elu0);
const cpu = cpu0 === null ? null : mainThreadCpu() - cpu0;

// ---- figures ----
latencies.sort((a, b) => a - b);
const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))].toFixed(0);
const created = statuses.get(201) ?? 0;
console.log(
  `online registration on ${values.db} (${VISITORS} visitors, ${SECONDS} s, auth ${values.auth}, mail ${values.mail}): ` +
    `${(created / elapsed).toFixed(1)} registrations/s; latency p50 ${pct(50)} ms, p90 ${pct(90)} ms, p95 ${pct(95)} ms, p99 ${pct(99)} ms, max ${pct(100)} ms; ` +
    `answers ${JSON.stringify(Object.fromEntries(statuses))}`,
);
const perSecond = created / elapsed;
const barePerSecond = bareCreated / bareRun.elapsed;
const p99 = Number(pct(99));
const max = Number(pct(100));
// the server's own cost: its event loop's busy time per answer (the visitors have their own thread)
const busy = (e, n) => (n ? (e.active * 1000) / n : 0);
const goal = values.db === 'mariadb' ? 300 : 500;
console.log(
  `bare Fastify POST (same visitors, same run): ${barePerSecond.toFixed(0)}/s; ratio registration/bare ${(perSecond / barePerSecond).toFixed(4)}; ` +
    `server event loop busy ${busy(elu, created).toFixed(0)} µs per registration, ${busy(bareElu, bareCreated).toFixed(0)} µs per bare POST ` +
    `(ratio ${(busy(bareElu, bareCreated) / busy(elu, created)).toFixed(4)}); ` +
    (cpu === null
      ? ''
      : `server thread CPU ${((cpu * 1000) / created).toFixed(0)} µs per registration (with the mail worker's), ` +
        `${((bareCpu * 1000) / bareCreated).toFixed(0)} µs per bare POST; `) +
    (dbUsed === null ? '' : `database server CPU ${((dbUsed * 1000) / created).toFixed(0)} µs per registration; `) +
    `${perRegistration.toFixed(1)} SQL statements per registration alone, ${(underLoad / Math.max(1, created)).toFixed(1)} under the load (the mail and search workers' included); ` +
    `target ≥ ${goal}/s, p99 < 500 ms, nothing over 2 s: ${perSecond >= goal && p99 < 500 && max <= 2000 ? 'met' : 'not met'}`,
);

// ---- verification: nothing lost, nothing twice ----
const one = async (sql, params = []) => Number(Object.values((await ds.query(sql, params))[0])[0]);
// the 20 warm-up registrations are rows too (and code uses, log rows, mails), and the one whose
// statements were shown
const before = shown ? 21 : 20;
const rows = (await one('SELECT COUNT(*) FROM accreditation WHERE actionId = ?', [action.id])) - before;
const emails = -before + (await one('SELECT COUNT(DISTINCT email) FROM accreditation WHERE actionId = ?', [action.id]));
const customIds =
  -before + (await one('SELECT COUNT(DISTINCT customId) FROM accreditation WHERE actionId = ?', [action.id]));
const topCustomId = await one('SELECT MAX(customId) FROM accreditation WHERE actionId = ?', [action.id]);
const checks = [
  [`201 answers (${created}) == rows (${rows})`, created === rows],
  [`no duplicate e-mail (${emails} distinct)`, emails === rows],
  [`no duplicate customId (${customIds} distinct)`, customIds === rows],
  [`customIds dense (highest ${topCustomId} == rows with the warm-up's)`, topCustomId === rows + before],
  [`only 201 answers`, statuses.size === 1 && created > 0],
];
if (withCode) {
  const used = -before + (await one('SELECT used FROM web_channel_code WHERE channelId = ?', [channel.id]));
  const logs =
    -before +
    (await one(
      'SELECT COUNT(*) FROM web_channel_code_log l JOIN web_channel_code c ON c.id = l.codeId WHERE c.channelId = ?',
      [channel.id],
    ));
  checks.push([`code uses (${used}) == rows`, used === rows], [`code log rows (${logs}) == rows`, logs === rows]);
}
if (mail) {
  const queued =
    -before +
    (await one(
      'SELECT COUNT(*) FROM mail_queue WHERE accreditationId IN (SELECT id FROM accreditation WHERE actionId = ?)',
      [action.id],
    ));
  checks.push([`after-registration mails queued (${queued}) == rows`, queued === rows]);
}
for (const [label, ok] of checks) console.log(`${ok ? 'ok  ' : 'FAIL'} ${label}`);
await stop();
if (checks.some(([, ok]) => !ok)) process.exit(1);
