// Benchmark (issue 4, issue 16): with 100,000 (or --rows 1000000) accreditations in one action, how
// fast are the list, the filtered list and the detail? Seeds the volume straight into a fresh
// database (multi-row INSERTs in one transaction), then times the real HTTP calls. Prints median
// and p95 per call, in wall time and in this process's CPU time (server and client; on SQLite the
// database as well, on MariaDB not).
//
//   node bench/accreditation-list.mjs [--db sqlite|mariadb] [--rows 100000] [--runs 50] [--no-export] [--only <label text>]
// (build first: npm run build). MariaDB at TEST_MARIADB_URL (default mysql://root@127.0.0.1:3306);
// there the seeding also fills the trigram tables through their triggers (migration 1764108100000):
// ~40 rows per person, several times the seeding time. BENCH_KEEP=1 keeps the database afterwards
// (MariaDB's database or SQLite's data folder: it prints which), BENCH_REUSE=<that> measures it
// again without seeding (e.g. another build through BENCH_BACKEND_DIST, in the same minutes).
import { parseArgs } from 'node:util';
import { databaseCpuMs, startBench } from './lib.mjs';

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: 'sqlite' },
    rows: { type: 'string', default: '100000' },
    runs: { type: 'string', default: '50' },
    // the .xlsx export of everyone at the end (minutes at a million): --no-export leaves it out
    export: { type: 'boolean', default: true },
    // only the calls whose label holds this text (e.g. --only "random page"), to measure a few again
    only: { type: 'string', default: '' },
  },
  allowNegative: true,
});
let ROWS = Number(values.rows);
const RUNS = Number(values.runs);
const t0 = performance.now();
const bench = await startBench(values.db);
const { ds, base, token, subjectId, now, stop } = bench;
// A keep-alive connection left idle through a long seed may have been closed by the server: retry once.
const call = (...args) =>
  bench.call(...args).catch((err) => {
    if (err?.cause?.code === 'ECONNRESET') return bench.call(...args);
    throw err;
  });
const q = (sql, params = []) => ds.query(sql, params);
// BENCH_REUSE (bench/lib.mjs): a database seeded by an earlier run kept with BENCH_KEEP=1 (the name
// it printed): its action, field, groups, zones and size are read back, nothing is seeded.
const reused = process.env.BENCH_REUSE
  ? await (async () => {
      const [a] = await q('SELECT id FROM action WHERE subjectId = ? ORDER BY id DESC LIMIT 1', [subjectId]);
      const [f] = await q('SELECT fieldId AS id FROM accreditation_value WHERE actionId = ? LIMIT 1', [a.id]);
      const g = await q('SELECT id FROM `groups` WHERE actionId = ? ORDER BY id', [a.id]);
      const z = await q('SELECT id FROM zone WHERE actionId = ? ORDER BY id', [a.id]);
      const [{ n }] = await q('SELECT COUNT(*) AS n FROM accreditation WHERE actionId = ?', [a.id]);
      ROWS = Number(n);
      return { action: a, field: f, groups: g.map((r) => r.id), zones: z.map((r) => r.id) };
    })()
  : null;
let field = reused?.field;
let action = reused?.action;
const groups = reused?.groups ?? [];
const zones = reused?.zones ?? [];
if (!reused) {
  field = (await call('POST', '/custom-field', { name: 'company', label: { cs: 'Firma' }, customFieldType: 1 })).data;
  action = (await call('POST', '/action', { name: { cs: 'Bench' }, customField: [{ id: field.id }] })).data;
  for (let g = 0; g < 10; g++)
    groups.push((await call('POST', '/groups', { name: `Group ${g}`, actionId: action.id })).data.id);
  for (let z = 0; z < 4; z++)
    zones.push((await call('POST', '/zone', { name: `Zone ${z}`, actionId: action.id })).data.id);

  // MariaDB: the trigram tables (migration 1764108100000) are written by the trigram worker for
  // the people the insert triggers list in trigram_pending (migration 1764300000001), some 800
  // people a second (a million: 20 minutes); the seed writes the same rows itself in key order
  // after the people, and then takes them off the pending list as the worker would (the worker
  // does not poll meanwhile: its batches would lock the same rows).
  if (values.db === 'mariadb')
    (await bench.provider('modules/accreditation/trigram-worker.js', 'TrigramWorker')).stopPolling();
  const searchOf = (n) => `first${n} last${n} person${n}@example.com bc${String(n).padStart(14, '0')}`;
  const companyOf = (n) => `Company ${n % 1000}`;

  const BATCH = 500;
  await ds.transaction(async (m) => {
    for (let i = 0; i < ROWS; i += BATCH) {
      const n = Math.min(BATCH, ROWS - i);
      const rows = [];
      const params = [];
      for (let k = 0; k < n; k++) {
        const id = i + k + 1;
        rows.push('(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
        params.push(
          subjectId,
          action.id,
          id,
          `First${id}`,
          `Last${id}`,
          `person${id}@example.com`,
          `BC${String(id).padStart(14, '0')}`,
          searchOf(id),
          '[]',
          JSON.stringify({ [field.id]: companyOf(id) }),
          id % 7 === 0 ? 1 : 0,
          0,
          'admin',
          now,
          now,
        );
      }
      await m.query(
        `INSERT INTO accreditation (subjectId, actionId, customId, firstname, lastname, email, bc, search, days, fieldValues, printCount, isUnlimited, source, createdAt, updatedAt) VALUES ${rows.join(',')}`,
        params,
      );
    }
    const [{ first }] = await m.query('SELECT MIN(id) AS first FROM accreditation');
    for (let i = 0; i < ROWS; i += BATCH) {
      const n = Math.min(BATCH, ROWS - i);
      const g = [];
      const z = [];
      const v = [];
      const e = [];
      for (let k = 0; k < n; k++) {
        const id = Number(first) + i + k;
        g.push(`(${id}, ${groups[(i + k) % groups.length]})`);
        // each person in one of four zones
        z.push(`(${id}, ${zones[(i + k) % zones.length]})`);
        v.push(`(${id}, ${field.id}, ${action.id}, '${companyOf(i + k + 1)}')`);
        // Four in five have come in through a gate, on the first day.
        if ((i + k) % 5) e.push(`(${subjectId}, ${action.id}, ${id}, 1, '2027-05-10', '${now}')`);
      }
      await m.query(`INSERT INTO accreditation_group (accreditationId, groupId) VALUES ${g.join(',')}`);
      await m.query(`INSERT INTO accreditation_zone (accreditationId, zoneId) VALUES ${z.join(',')}`);
      await m.query(
        `INSERT INTO accreditation_value (accreditationId, fieldId, actionId, value) VALUES ${v.join(',')}`,
      );
      await m.query(
        `INSERT INTO entrance (subjectId, actionId, accreditationId, type, day, createdAt) VALUES ${e.join(',')}`,
      );
    }
  });
  if (values.db === 'mariadb') {
    // what the trigram worker would write: each distinct trigram (3 characters from every position) of the text,
    // written here in bulk instead (the bench stops the worker's polling)
    const [{ first }] = await q('SELECT MIN(id) AS first FROM accreditation');
    const fill = async (table, columns, texts) => {
      const byGram = new Map();
      for (const [n, text] of texts) {
        const c = Array.from(text);
        for (let p = 0; p + 3 <= c.length; p++) {
          const gram = c.slice(p, p + 3).join('');
          const ids = byGram.get(gram) ?? [];
          if (ids.at(-1) !== Number(first) + n - 1) ids.push(Number(first) + n - 1);
          byGram.set(gram, ids);
        }
      }
      let rows = [];
      const flush = async () => {
        if (rows.length)
          await q(
            `INSERT IGNORE INTO ${table} (${columns.join(', ')}) VALUES ${rows.map((r) => `(${r.map(() => '?').join(', ')})`).join(', ')}`,
            rows.flat(),
          );
        rows = [];
      };
      for (const gram of [...byGram.keys()].sort())
        for (const id of byGram.get(gram)) {
          rows.push(table === 'accreditation_trigram' ? [action.id, gram, id] : [action.id, field.id, gram, id]);
          if (rows.length === 5000) await flush();
        }
      await flush();
    };
    const texts = (of) =>
      (function* () {
        for (let n = 1; n <= ROWS; n++) yield [n, of(n)];
      })();
    await fill('accreditation_trigram', ['actionId', 'trigram', 'accreditationId'], texts(searchOf));
    await fill('accreditation_value_trigram', ['actionId', 'fieldId', 'trigram', 'accreditationId'], texts(companyOf));
    await q('DELETE FROM trigram_pending WHERE actionId = ?', [action.id]);
  }
  if (values.db === 'sqlite') await q('ANALYZE');
  else
    await q(
      'ANALYZE TABLE accreditation, accreditation_group, accreditation_zone, accreditation_value, entrance, accreditation_trigram, accreditation_value_trigram',
    );
}
const seeded = ((performance.now() - t0) / 1000).toFixed(1);

// ---- measure ----
const dbCpu = () => (values.db === 'mariadb' ? databaseCpuMs() : null);

// Wall time per call, and the CPU time this process (client and server in one, so on SQLite the
// database too) spent on it: on a loaded machine the CPU figure moves far less than the wall time.
// On a local MariaDB, its server's CPU time over all runs, per call (10 ms ticks, so an average).
const stats = async (label, fn) => {
  if (!label.includes(values.only)) return;
  for (let i = 0; i < 3; i++) await fn(i); // warm up
  const times = [];
  const cpus = [];
  const db0 = dbCpu();
  for (let i = 0; i < RUNS; i++) {
    const c = process.cpuUsage();
    const s = performance.now();
    await fn(i);
    times.push(performance.now() - s);
    const d = process.cpuUsage(c);
    cpus.push((d.user + d.system) / 1000);
  }
  const pick = (xs, p) => {
    const sorted = [...xs].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))].toFixed(1).padStart(7);
  };
  const db = db0 === null ? '' : `   db cpu ${((dbCpu() - db0) / RUNS).toFixed(1).padStart(6)} ms`;
  console.log(
    `${label.padEnd(34)} median ${pick(times, 0.5)} ms   p95 ${pick(times, 0.95)} ms   cpu median ${pick(cpus, 0.5)} ms   p95 ${pick(cpus, 0.95)} ms${db}`,
  );
};
console.log(`accreditation list on ${values.db}: ${ROWS} rows seeded in ${seeded} s, ${RUNS} runs each`);
if (values.db === 'mariadb') {
  // what the pages read from: a pool smaller than the data reads it from the disk again (O_DIRECT)
  const [{ pool, method }] = await q('SELECT @@innodb_buffer_pool_size AS pool, @@innodb_flush_method AS method');
  const [{ size }] = await q(
    'SELECT SUM(data_length + index_length) AS size FROM information_schema.tables WHERE table_schema = DATABASE()',
  );
  const mib = (n) => `${Math.round(Number(n) / 2 ** 20)} MiB`;
  console.log(
    `MariaDB: InnoDB buffer pool ${mib(pool)} (innodb_flush_method ${method}) for this database's ${mib(size)} of rows and indexes (README "Running on MySQL / MariaDB")`,
  );
}
const pages = Math.floor(ROWS / 10);
await stats('list, page 1', () => call('POST', '/user/all', { actionId: action.id, page: 1, pageSize: 10 }));
await stats('list, page 1, exact count', () =>
  call('POST', '/user/all', { actionId: action.id, page: 1, pageSize: 10, exactCount: true }),
);
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
// a deep page of a filtered list: a random page of one group (a tenth of the people)
const groupPages = Math.max(1, Math.floor(ROWS / groups.length / 10));
await stats('filter by group, random page', (i) =>
  call('POST', '/user/filter', {
    actionId: action.id,
    page: 1 + ((i * 7919) % groupPages),
    pageSize: 10,
    filterData: { groupId: groups[i % groups.length] },
  }),
);
await stats('filter by zone', (i) =>
  call('POST', '/user/filter', {
    actionId: action.id,
    page: 1,
    pageSize: 10,
    filterData: { zoneId: zones[i % zones.length] },
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
// Broad filters: most rows match, so the page is found at once but the count visits them all.
await stats('filter by text (broad)', () =>
  call('POST', '/user/filter', { actionId: action.id, page: 1, pageSize: 10, filterData: { text: 'example' } }),
);
await stats('filter by user field (broad)', () =>
  call('POST', '/user/filter', {
    actionId: action.id,
    page: 1,
    pageSize: 10,
    filterData: { customField: { [field.id]: 'Company' } },
  }),
);
await stats('filter by entrance: not entered', () =>
  call('POST', '/user/filter', { actionId: action.id, page: 1, pageSize: 10, filterData: { entrance: 3 } }),
);
await stats('filter by entrance: on a day', () =>
  call('POST', '/user/filter', {
    actionId: action.id,
    page: 1,
    pageSize: 10,
    filterData: { entrance: 2, entranceDate: '2027-05-10' },
  }),
);
// Two conditions at once (an admin's "this group, not printed yet"): no count is kept for a pair,
// so the count and a page come from the conditions' own indexes or the walk.
const both = (label, filterData) =>
  stats(label, () => call('POST', '/user/filter', { actionId: action.id, page: 1, pageSize: 10, filterData }));
await both('filter by group and printed', { groupId: groups[3], printed: 1 });
await both('filter by group and not printed', { groupId: groups[3], printed: -1 });
await both('filter by group and zone', { groupId: groups[2], zoneId: zones[1] });
await both('filter by group and not entered', { groupId: groups[4], entrance: 3 });
await both('filter by text and group', { text: 'example', groupId: groups[5] });
// The same pairs after a change to the action before each call (the newest person's search text
// written, which the change feed records): the marks and count a pair's walk keeps (walk-marks.ts)
// are mended, the matches between the two marks around the change counted again, as on the first
// call after any change of a few people. The write is in the time measured.
const [{ newest }] = await q('SELECT MAX(id) AS newest FROM accreditation WHERE actionId = ?', [action.id]);
const change = (i) =>
  q('UPDATE accreditation SET search = ? WHERE id = ?', [`changed ${i} ${Date.now()} @example.com`, newest]);
for (const [label, filterData] of [
  ['filter by group and printed', { groupId: groups[3], printed: 1 }],
  ['filter by group and zone', { groupId: groups[2], zoneId: zones[1] }],
  ['filter by group and not entered', { groupId: groups[4], entrance: 3 }],
])
  await stats(`${label}, after a change`, async (i) => {
    await change(i);
    await call('POST', '/user/filter', { actionId: action.id, page: 1, pageSize: 10, filterData });
  });
// Deep pages of the other filters alone: a random page of everyone the filter holds (the seed's
// shares: printed 1 in 7, entered on the first day 4 in 5, every text and company broad).
const deep = (label, filterData, matches) => {
  const n = Math.max(1, Math.floor(matches / 10));
  return stats(`${label}, random page`, (i) =>
    call('POST', '/user/filter', { actionId: action.id, page: 1 + ((i * 7919) % n), pageSize: 10, filterData }),
  );
};
await deep('filter by zone (1 in 4)', { zoneId: zones[0] }, Math.floor(ROWS / 4));
await deep('filter by printed', { printed: 1 }, Math.floor(ROWS / 7));
await deep('filter by not printed', { printed: -1 }, ROWS - Math.floor(ROWS / 7));
await deep('filter by text (broad)', { text: 'example' }, ROWS);
// The list itself reaches a page past the 10,000 it counts by default only once the exact count is
// asked for, and then asks for it with every page: the same random pages as the list sends them.
{
  const n = Math.max(1, Math.floor(ROWS / 10));
  await stats('filter by text (broad), random page, exact count', (i) =>
    call('POST', '/user/filter', {
      actionId: action.id,
      page: 1 + ((i * 7919) % n),
      pageSize: 10,
      exactCount: true,
      filterData: { text: 'example' },
    }),
  );
}
// The broad text's deep pages after a change to the action before each call (the newest person's
// search text written, which the change feed records): the marks of the text's walk
// (walk-marks.ts) are mended (the matches above the first mark counted again) before the page is
// read from the nearest, as the first deep page after a change of a few people is. The write is
// in the time measured.
{
  const n = Math.max(1, Math.floor(ROWS / 10));
  await stats('filter by text (broad), random page after a change', async (i) => {
    await change(i);
    await call('POST', '/user/filter', {
      actionId: action.id,
      page: 1 + ((i * 7919) % n),
      pageSize: 10,
      filterData: { text: 'example' },
    });
  });
}
await deep('filter by user field (broad)', { customField: { [field.id]: 'Company' } }, ROWS);
await deep('not entered', { entrance: 3 }, Math.floor(ROWS / 5));
await deep('entered on a day', { entrance: 2, entranceDate: '2027-05-10' }, ROWS - Math.floor(ROWS / 5));
const [{ first }] = await q('SELECT MIN(id) AS first FROM accreditation');
await stats('detail', (i) => call('GET', `/user/${action.id}/${Number(first) + ((i * 104729) % ROWS)}`));
await stats('check by code', (i) =>
  call('GET', `/user/check/BC${String(1 + ((i * 104729) % ROWS)).padStart(14, '0')}`),
);

// Export of everyone (select-all on an empty filter) as .xlsx: one run, its time, size and the
// memory the process grew by while making it.
if (values.export) {
  const rss = process.memoryUsage().rss;
  const s = performance.now();
  const res = await fetch(`${base}/user/export`, {
    method: 'POST',
    headers: { authorization: token, 'content-type': 'application/json' },
    body: JSON.stringify({ actionId: action.id, all: true, filterData: {} }),
  });
  if (!res.ok) throw new Error(`export: ${res.status} ${await res.text()}`);
  const bytes = (await res.arrayBuffer()).byteLength;
  const seconds = ((performance.now() - s) / 1000).toFixed(1);
  const grew = ((process.memoryUsage().rss - rss) / 2 ** 20).toFixed(0);
  console.log(
    `export of all ${ROWS} (.xlsx)           ${seconds} s, ${(bytes / 2 ** 20).toFixed(1)} MB, process grew ${grew} MB`,
  );
}

await stop();
