// Benchmark (issue 4): import a spreadsheet of 10,000 people (all-or-nothing) and print the time.
//   node bench/import.mjs [--db sqlite|mariadb] [--rows 10000]      (build first: npm run build)
import { parseArgs } from 'node:util';
import ExcelJS from 'exceljs';
import { startBench } from './lib.mjs';

const { values } = parseArgs({
  options: { db: { type: 'string', default: 'sqlite' }, rows: { type: 'string', default: '10000' } },
});
const ROWS = Number(values.rows);
const { call, stop } = await startBench(values.db);
const field = (await call('POST', '/custom-field', { name: 'company', label: { cs: 'Firma' }, customFieldType: 1 }))
  .data;
const action = (await call('POST', '/action', { name: { cs: 'Import' }, customField: [{ id: field.id }] })).data;
await call('POST', '/groups', { name: 'Crew', actionId: action.id });

const wb = new ExcelJS.Workbook();
const ws = wb.addWorksheet('import');
ws.addRow(['firstname', 'lastname', 'email', 'group', 'zones', 'bc', 'company']);
for (let i = 0; i < ROWS; i++)
  ws.addRow([`First${i}`, `Last${i}`, `p${i}@example.com`, i % 3 ? 'Crew' : '', '', '', `Company ${i % 100}`]);
const file = Buffer.from(await wb.xlsx.writeBuffer());
const dataFile = `data:application/vnd.openxmlformats-officedocument.spreadsheetml.sheet;base64,${file.toString('base64')}`;

const rss0 = process.memoryUsage().rss;
const t0 = performance.now();
const res = await call('POST', '/user/import', { actionId: action.id, dataFile, zonesImportType: 2 });
const seconds = ((performance.now() - t0) / 1000).toFixed(2);
const max = (await call('POST', '/user/all', { actionId: action.id, page: 1, pageSize: 1 })).max;
console.log(
  `import on ${values.db}: ${res.data.imported} of ${ROWS} rows (${(file.length / 1024).toFixed(0)} KiB) in ${seconds} s; ${max} in the action; server RSS +${((process.memoryUsage().rss - rss0) / 1048576).toFixed(0)} MiB`,
);
await stop();
