// Benchmark (issue 5): public online registration under load. Seeds a web channel (authorization by
// one external code with unlimited uses, so every registration also counts a use and writes a log
// row; an after-registration mail), then keeps 200 virtual visitors registering for N seconds and
// prints sustained registrations per second with p50/p95/p99 latency. Afterwards it checks that no
// registration was lost or duplicated: 201 answers == rows == counted code uses == log rows.
//   node bench/online-registration.mjs [--db sqlite|mariadb] [--visitors 200] [--seconds 20]
//                                      [--auth code|none] [--mail yes|no]   (build first: npm run build)
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { startBench } from './lib.mjs';

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: 'sqlite' },
    visitors: { type: 'string', default: '200' },
    seconds: { type: 'string', default: '20' },
    auth: { type: 'string', default: 'code' },
    mail: { type: 'string', default: 'yes' },
  },
});
const VISITORS = Number(values.visitors);
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
const { latencies, statuses, elapsed } = await new Promise((resolve, reject) => {
  const worker = new Worker(new URL('./online-registration-visitors.mjs', import.meta.url), {
    workerData: {
      url: `${online}/accreditation/${channel.channelKey}`,
      token: token ?? null,
      phoneId: phone.id,
      visitors: VISITORS,
      seconds: SECONDS,
    },
  });
  worker.once('message', resolve);
  worker.once('error', reject);
});

// ---- figures ----
latencies.sort((a, b) => a - b);
const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))].toFixed(0);
const created = statuses.get(201) ?? 0;
console.log(
  `online registration on ${values.db} (${VISITORS} visitors, ${SECONDS} s, auth ${values.auth}, mail ${values.mail}): ` +
    `${(created / elapsed).toFixed(1)} registrations/s; latency p50 ${pct(50)} ms, p90 ${pct(90)} ms, p95 ${pct(95)} ms, p99 ${pct(99)} ms, max ${pct(100)} ms; ` +
    `answers ${JSON.stringify(Object.fromEntries(statuses))}`,
);

// ---- verification: nothing lost, nothing twice ----
const one = async (sql, params = []) => Number(Object.values((await ds.query(sql, params))[0])[0]);
const rows = await one('SELECT COUNT(*) FROM accreditation WHERE actionId = ?', [action.id]);
const emails = await one('SELECT COUNT(DISTINCT email) FROM accreditation WHERE actionId = ?', [action.id]);
const customIds = await one('SELECT COUNT(DISTINCT customId) FROM accreditation WHERE actionId = ?', [action.id]);
const checks = [
  [`201 answers (${created}) == rows (${rows})`, created === rows],
  [`no duplicate e-mail (${emails} distinct)`, emails === rows],
  [`no duplicate customId (${customIds} distinct)`, customIds === rows],
  [`only 201 answers`, statuses.size === 1 && created > 0],
];
if (withCode) {
  const used = await one('SELECT used FROM web_channel_code WHERE channelId = ?', [channel.id]);
  const logs = await one(
    'SELECT COUNT(*) FROM web_channel_code_log l JOIN web_channel_code c ON c.id = l.codeId WHERE c.channelId = ?',
    [channel.id],
  );
  checks.push([`code uses (${used}) == rows`, used === rows], [`code log rows (${logs}) == rows`, logs === rows]);
}
if (mail) {
  const queued = await one(
    'SELECT COUNT(*) FROM mail_queue WHERE accreditationId IN (SELECT id FROM accreditation WHERE actionId = ?)',
    [action.id],
  );
  checks.push([`after-registration mails queued (${queued}) == rows`, queued === rows]);
}
for (const [label, ok] of checks) console.log(`${ok ? 'ok  ' : 'FAIL'} ${label}`);
await stop();
if (checks.some(([, ok]) => !ok)) process.exit(1);
