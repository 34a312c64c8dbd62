// Benchmark (issue 14): the dashboard of a subject with 1,000,000 accreditations (target: under
// 300 ms). Seeds the people straight into a fresh database (5 actions, registrations spread over
// 60 days, one in three through a web channel; the hourly counts are kept by the triggers as the rows
// go in), then times the real GET dashboard and prints median and p95, beside the baseline: the
// per-hour count over the accreditations themselves that the dashboard made before the counts table.
// With --mails N it also seeds N mails of the subject (the mail tiles count them).
//
//   node bench/dashboard.mjs [--db sqlite|mariadb] [--rows 1000000] [--mails 0] [--runs 30]
// (build first: npm run build). MariaDB at TEST_MARIADB_URL (default mysql://root@127.0.0.1:3306).
import { parseArgs } from 'node:util';
import { startBench } from './lib.mjs';

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: 'sqlite' },
    rows: { type: 'string', default: '1000000' },
    mails: { type: 'string', default: '0' },
    runs: { type: 'string', default: '30' },
  },
});
const ROWS = Number(values.rows);
const MAILS = Number(values.mails);
const RUNS = Number(values.runs);
const mariadb = values.db === 'mariadb';
const t0 = performance.now();
const { ds, call, subjectId, now, stop } = await startBench(values.db);
const q = (sql, params = []) => ds.query(sql, params);

const ACTIONS = 5;
const actions = [];
for (let a = 0; a < ACTIONS; a++)
  actions.push((await call('POST', '/action', { name: { cs: `Bench ${a + 1}` } })).data.id);
const channel = (await call('POST', '/web-channel', { name: 'Public', actionId: actions[0] })).data.id;

const DAYS = 60;
const start = Date.now() - DAYS * 86_400_000;
const at = (i) =>
  new Date(start + Math.floor((i / ROWS) * DAYS * 86_400_000)).toISOString().slice(0, 23).replace('T', ' ');
const BATCH = 500;
const customIds = new Array(ACTIONS).fill(0);
await ds.transaction(async (m) => {
  for (let i = 0; i < ROWS; i += BATCH) {
    const n = Math.min(BATCH, ROWS - i);
    const rows = [];
    const params = [];
    for (let k = 0; k < n; k++) {
      const id = i + k + 1;
      const a = id % ACTIONS;
      const web = id % 3 === 0;
      const bc = `DB${String(id).padStart(14, '0')}`;
      rows.push('(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
      params.push(
        subjectId,
        actions[a],
        ++customIds[a],
        `First${id}`,
        `Last${id}`,
        `person${id}@example.com`,
        bc,
        `first${id} last${id} person${id}@example.com ${bc.toLowerCase()}`,
        '[]',
        '{}',
        0,
        0,
        web ? 'web' : 'admin',
        web ? channel : null,
        at(i + k),
        now,
      );
    }
    await m.query(
      `INSERT INTO accreditation (subjectId, actionId, customId, firstname, lastname, email, bc, search, days, fieldValues, printCount, isUnlimited, source, webChannelId, createdAt, updatedAt) VALUES ${rows.join(',')}`,
      params,
    );
  }
  for (let i = 0; i < MAILS; i += BATCH) {
    const n = Math.min(BATCH, MAILS - i);
    const rows = [];
    for (let k = 0; k < n; k++) {
      const status = (i + k) % 50 === 0 ? 'error' : (i + k) % 20 === 0 ? 'waiting' : 'sent';
      rows.push(`(${subjectId}, 'p${i + k}@example.com', 'Hello', 'Hi', '${status}', 1, '${now}', '${now}')`);
    }
    await m.query(
      `INSERT INTO mail_queue (subjectId, recipient, subject, bodyText, status, attempts, nextAttemptAt, createdAt) VALUES ${rows.join(',')}`,
    );
  }
});
// the device change feed the triggers also filled is not what this measures
await q('DELETE FROM accreditation_change');
if (mariadb) await q('ANALYZE TABLE accreditation, accreditation_hourly, mail_queue');
else await q('ANALYZE');
const seeded = ((performance.now() - t0) / 1000).toFixed(1);
const [{ n: hourly }] = await q('SELECT COUNT(*) AS n FROM accreditation_hourly WHERE subjectId = ?', [subjectId]);

const stats = async (label, fn) => {
  for (let i = 0; i < 3; i++) await fn(i); // warm up
  const times = [];
  for (let i = 0; i < RUNS; i++) {
    const s = performance.now();
    await fn(i);
    times.push(performance.now() - s);
  }
  times.sort((a, b) => a - b);
  const pick = (p) => times[Math.min(times.length - 1, Math.floor(p * times.length))].toFixed(1);
  console.log(`${label.padEnd(46)} median ${pick(0.5).padStart(7)} ms   p95 ${pick(0.95).padStart(7)} ms`);
};

console.log(
  `dashboard on ${values.db}: ${ROWS} accreditations (${ACTIONS} actions, ${DAYS} days) and ${MAILS} mails seeded in ${seeded} s; ${hourly} hourly counts; ${RUNS} runs each`,
);
// the first call after the long seed may meet a kept-alive socket the server has closed meanwhile
const dashboard = await call('GET', '/dashboard').catch(() => call('GET', '/dashboard'));
const total = dashboard.data.accreditationChartData.reduce((n, r) => n + r.count, 0);
if (total !== ROWS || dashboard.data.basicData.userCount !== ROWS)
  throw new Error(`the dashboard counts ${total} / ${dashboard.data.basicData.userCount}, not ${ROWS}`);
await stats('GET dashboard', () => call('GET', '/dashboard'));

// the baseline: what GET dashboard counted before (issue 14), straight from the accreditations
const hour = mariadb ? "DATE_FORMAT(createdAt, '%Y-%m-%d %H')" : 'substr(createdAt, 1, 13)';
await stats('baseline: per-hour count over accreditations', () =>
  q(
    `SELECT ${hour} AS h, actionId, source, COUNT(*) AS n FROM accreditation WHERE subjectId = ? GROUP BY ${hour}, actionId, source`,
    [subjectId],
  ),
);
await stats('baseline: COUNT(*) of the accreditations tile', () =>
  q('SELECT COUNT(*) AS n FROM accreditation WHERE subjectId = ?', [subjectId]),
);
await stats('baseline: latest 10 by id over the subject', () =>
  q('SELECT id FROM accreditation WHERE subjectId = ? ORDER BY id DESC LIMIT 10', [subjectId]),
);
if (MAILS)
  await stats('baseline: the three mail counts by status', () =>
    Promise.all(
      [["'sent'"], ["'waiting'", "'sending'"], ["'error'"]].map((statuses) =>
        q(`SELECT COUNT(*) AS n FROM mail_queue WHERE subjectId = ? AND status IN (${statuses.join(', ')})`, [
          subjectId,
        ]),
      ),
    ),
  );

// the query plans of the dashboard's reads (each must use an index, not read every row)
const plans = [
  ['hourly counts', 'SELECT utcHour, actionId, source, registrations FROM accreditation_hourly WHERE subjectId = ?'],
  [
    'latest of an action',
    `SELECT id FROM accreditation WHERE subjectId = ? AND actionId = ${actions[0]} ORDER BY id DESC LIMIT 10`,
  ],
  [
    'mails not sent',
    "SELECT status, COUNT(*) FROM mail_queue WHERE subjectId = ? AND status IN ('waiting', 'sending', 'error') GROUP BY status",
  ],
  ['mail total', 'SELECT mails FROM mail_total WHERE subjectId = ?'],
];
for (const [label, sql] of plans) {
  const plan = await q(`${mariadb ? 'EXPLAIN' : 'EXPLAIN QUERY PLAN'} ${sql}`, [subjectId]);
  const text = plan
    .map((p) => (mariadb ? `${p.table}: ${p.type} key=${p.key} rows=${p.rows} ${p.Extra ?? ''}` : p.detail))
    .join('; ');
  console.log(`plan, ${label.padEnd(20)} ${text}`);
}

await stop();
