// Benchmark (issue 5 / spec §5 mass mail): how long does the admin wait for "send mail" to the whole
// filter of a large action? Seeds N people, then times POST email/send with select-all, once with a
// plain template and once with one that draws each person's QR code ({{bc}}). Prints the seconds.
//
//   node bench/mass-mail.mjs [--db sqlite|mariadb] [--rows 5000]
// (build first: npm run build). MariaDB at TEST_MARIADB_URL (default mysql://root@127.0.0.1:3306).
import { parseArgs } from 'node:util';
import { startBench } from './lib.mjs';

const { values } = parseArgs({
  options: { db: { type: 'string', default: 'sqlite' }, rows: { type: 'string', default: '5000' } },
});
const ROWS = Number(values.rows);
const { ds, call, subjectId, now, stop } = await startBench(values.db);
const action = (await call('POST', '/action', { name: { cs: 'Mail' } })).data;
const BATCH = 500;
for (let i = 0; i < ROWS; i += BATCH) {
  const rows = [];
  const params = [];
  for (let k = 0; k < Math.min(BATCH, ROWS - i); k++) {
    const id = i + k + 1;
    rows.push('(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
    params.push(subjectId, action.id, id, `First${id}`, `Last${id}`, `person${id}@example.com`);
    params.push(`BC${String(id).padStart(14, '0')}`, `first${id}`, '[]', '{}', 0, 0, 'admin', now, now);
  }
  await ds.query(
    `INSERT INTO accreditation (subjectId, actionId, customId, firstname, lastname, email, bc, search, days, fieldValues, printCount, isUnlimited, source, createdAt, updatedAt) VALUES ${rows.join(',')}`,
    params,
  );
}
const template = async (name, html) =>
  (await call('POST', '/mail-template', { name, type: 2, subjectFrom: 'Hello {{firstname}}', html })).data.id;
const plain = await template('Plain', '<p>Dear {{firstname}} {{lastname}}, see you at {{actionName}}.</p>');
const withCode = await template('With code', '<p>Dear {{firstname}}, your code:</p>{{bc}}');

console.log(`mass mail on ${values.db} to ${ROWS} people (select-all):`);
for (const [label, id] of [
  ['plain template', plain],
  ['template with QR code', withCode],
]) {
  const s = performance.now();
  const result = (
    await call('POST', '/email/send', { actionId: action.id, all: true, filterData: {}, mailTemplate: id })
  ).data;
  const seconds = ((performance.now() - s) / 1000).toFixed(1);
  console.log(`${label.padEnd(24)} ${seconds.padStart(6)} s  (${result.queued} queued, ${result.error.length} errors)`);
}
await stop();
