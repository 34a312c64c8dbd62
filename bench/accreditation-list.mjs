// Benchmark (issue 4): with 100,000 accreditations in one action, how fast are the list, the
// filtered list and the detail? Seeds the volume straight into a fresh database, then times the
// real HTTP calls. Prints median and p95 per call.
//
//   node bench/accreditation-list.mjs [--db sqlite|mariadb] [--rows 100000] [--runs 50]
// (build first: npm run build). MariaDB at TEST_MARIADB_URL (default mysql://root@127.0.0.1:3306).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: 'sqlite' },
    rows: { type: 'string', default: '100000' },
    runs: { type: 'string', default: '50' },
  },
});
const ROWS = Number(values.rows);
const RUNS = Number(values.runs);
const root = path.resolve(import.meta.dirname, '..');
const { createApp } = await import(`${root}/backend/dist/app.factory.js`);
const { loadConfig } = await import(`${root}/backend/dist/config/config.js`);
const { hashPassword } = await import(`${root}/backend/dist/common/crypto.js`);

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'accredo-bench-'));
const dbName = `accredo_bench_${Date.now().toString(36)}`;
const mariadb = process.env.TEST_MARIADB_URL ?? 'mysql://root@127.0.0.1:3306';
const config = loadConfig({
  DATA_DIR: dataDir,
  LOG_LEVEL: 'error',
  PASSWORD_HASH_COST: '10',
  WEB_DIST: path.join(dataDir, 'none'),
  ...(values.db === 'mariadb' ? { DATABASE_URL: `${mariadb}/${dbName}` } : {}),
});
const app = await createApp(config);
await app.listen(0, '127.0.0.1');
const base = `http://127.0.0.1:${app.getHttpServer().address().port}/api/admin/v1`;
const { DataSource } = await import('typeorm');
const ds = app.get(DataSource);
const q = (sql, params = []) => ds.query(sql, params);
const now = new Date().toISOString().slice(0, 23).replace('T', ' ');

// ---- seed ----
const t0 = performance.now();
await q(
  `INSERT INTO subject (name, \`key\`, deviceKey, pathToFiles, multiLanguage, timeZone, extensions, createdAt) VALUES ('Bench', 'bench', 'BENCHKEY', 'bench', 0, 'Europe/Prague', '[]', ?)`.replace(
    /`/g,
    values.db === 'mariadb' ? '`' : '"',
  ),
  [now],
);
const [{ id: subjectId }] = await q(`SELECT id FROM subject WHERE pathToFiles = 'bench'`);
await q(
  `INSERT INTO admin_user (subjectId, login, passwordHash, name, active, verified, superuser, manageuser, rights, language, createdAt, updatedAt) VALUES (?, 'bench@example.com', ?, 'Bench', 1, 1, 1, 0, '{}', 'en', ?, ?)`,
  [subjectId, await hashPassword('bench-password', 10), now, now],
);
const token = (
  await (
    await fetch(`${base}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ login: 'bench@example.com', password: 'bench-password' }),
    })
  ).json()
).data.token;
const call = async (method, p, body) => {
  const res = await fetch(base + p, {
    method,
    headers: { authorization: token, 'content-type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${await res.text()}`);
  return await res.json();
};
const field = (await call('POST', '/custom-field', { name: 'company', label: { cs: 'Firma' }, customFieldType: 1 }))
  .data;
const action = (await call('POST', '/action', { name: { cs: 'Bench' }, customField: [{ id: field.id }] })).data;
const groups = [];
for (let g = 0; g < 10; g++)
  groups.push((await call('POST', '/groups', { name: `Group ${g}`, actionId: action.id })).data.id);

const BATCH = 500;
await ds.transaction(async (m) => {
  for (let i = 0; i < ROWS; i += BATCH) {
    const n = Math.min(BATCH, ROWS - i);
    const rows = [];
    const params = [];
    for (let k = 0; k < n; k++) {
      const id = i + k + 1;
      rows.push('(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
      params.push(
        subjectId,
        action.id,
        id,
        `First${id}`,
        `Last${id}`,
        `person${id}@example.com`,
        `BC${String(id).padStart(14, '0')}`,
        '[]',
        JSON.stringify({ [field.id]: `Company ${id % 1000}` }),
        id % 7 === 0 ? 1 : 0,
        0,
        'admin',
        now,
        now,
      );
    }
    await m.query(
      `INSERT INTO accreditation (subjectId, actionId, customId, firstname, lastname, email, bc, days, fieldValues, printCount, isUnlimited, source, createdAt, updatedAt) VALUES ${rows.join(',')}`,
      params,
    );
  }
  const [{ first }] = await m.query('SELECT MIN(id) AS first FROM accreditation');
  for (let i = 0; i < ROWS; i += BATCH) {
    const n = Math.min(BATCH, ROWS - i);
    const g = [];
    const v = [];
    for (let k = 0; k < n; k++) {
      const id = Number(first) + i + k;
      g.push(`(${id}, ${groups[(i + k) % groups.length]})`);
      v.push(`(${id}, ${field.id}, 'Company ${(i + k + 1) % 1000}')`);
    }
    await m.query(`INSERT INTO accreditation_group (accreditationId, groupId) VALUES ${g.join(',')}`);
    await m.query(`INSERT INTO accreditation_value (accreditationId, fieldId, value) VALUES ${v.join(',')}`);
  }
});
if (values.db === 'sqlite') await q('ANALYZE');
else await q('ANALYZE TABLE accreditation, accreditation_group, accreditation_value');
const seeded = ((performance.now() - t0) / 1000).toFixed(1);

// ---- measure ----
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
  console.log(`${label.padEnd(34)} median ${pick(0.5).padStart(7)} ms   p95 ${pick(0.95).padStart(7)} ms`);
};
console.log(`accreditation list on ${values.db}: ${ROWS} rows seeded in ${seeded} s, ${RUNS} runs each`);
const pages = Math.floor(ROWS / 10);
await stats('list, page 1', () => call('POST', '/user/all', { actionId: action.id, page: 1, pageSize: 10 }));
await stats('list, random page', (i) =>
  call('POST', '/user/all', { actionId: action.id, page: 1 + ((i * 7919) % pages), pageSize: 10 }),
);
await stats('filter by text (a name)', (i) =>
  call('POST', '/user/filter', { actionId: action.id, page: 1, pageSize: 10, filterData: { text: `Last${1000 + i}` } }),
);
await stats('filter by group', (i) =>
  call('POST', '/user/filter', {
    actionId: action.id,
    page: 1,
    pageSize: 10,
    filterData: { groupId: groups[i % groups.length] },
  }),
);
await stats('filter by printed', () =>
  call('POST', '/user/filter', { actionId: action.id, page: 1, pageSize: 10, filterData: { printed: 1 } }),
);
await stats('filter by user field', (i) =>
  call('POST', '/user/filter', {
    actionId: action.id,
    page: 1,
    pageSize: 10,
    filterData: { customField: { [field.id]: `Company ${100 + i}` } },
  }),
);
const [{ first }] = await q('SELECT MIN(id) AS first FROM accreditation');
await stats('detail', (i) => call('GET', `/user/${action.id}/${Number(first) + ((i * 104729) % ROWS)}`));
await stats('check by code', (i) =>
  call('GET', `/user/check/BC${String(1 + ((i * 104729) % ROWS)).padStart(14, '0')}`),
);

await app.close();
if (values.db === 'mariadb') {
  const admin = await new DataSource({ type: 'mariadb', url: `${mariadb}/` }).initialize();
  await admin.query(`DROP DATABASE IF EXISTS \`${dbName}\``);
  await admin.destroy();
}
fs.rmSync(dataDir, { recursive: true, force: true });
