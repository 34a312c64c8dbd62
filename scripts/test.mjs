// `npm test`: every check and test of the repository, in the order that fails fastest.
//   lint and format (Biome) · types (tsc) · unit and API tests (Vitest: libs, station, web, backend on SQLite
//   and on MariaDB) · build · browser journeys (Playwright in Debian's Chromium).
// Ends with one line "tests: N passed, N failed".
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { must, root, run } from './lib.mjs';
import { typecheck } from './typecheck.mjs';

const ci = process.env.CI === 'true' || process.env.CI === '1';
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'accredo-test-'));
let passed = 0;
let failed = 0;

function reachable(host, port) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port, timeout: 2000 }, () => {
      socket.end();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
    socket.on('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

function count(file, pick) {
  try {
    const [p, f] = pick(JSON.parse(fs.readFileSync(file, 'utf8')));
    passed += p;
    failed += f;
  } catch {
    failed += 1;
  }
}

function finish(code) {
  console.log(`\ntests: ${passed} passed, ${failed} failed`);
  process.exit(code || (failed ? 1 : 0));
}

console.log('• lint and format (Biome)');
await must(process.execPath, [path.join(root, 'node_modules/@biomejs/biome/bin/biome'), 'check', '.']);

console.log('• types (tsc)');
await typecheck();

const mariadbUrl = process.env.TEST_MARIADB_URL ?? 'mysql://root@127.0.0.1:3306';
const { hostname, port } = new URL(mariadbUrl);
const projects = ['libs', 'desktop', 'web', 'backend-sqlite'];
if (await reachable(hostname, Number(port || 3306))) projects.push('backend-mariadb');
else if (ci) {
  console.error(`MariaDB is not reachable at ${hostname}:${port || 3306}; CI runs the backend suite on it too.`);
  finish(1);
} else console.warn(`! MariaDB not reachable at ${hostname}:${port || 3306}: the backend suite runs on SQLite only.`);

// Two runs: the server suites, then the browser-component suite on its own, so jsdom renders are
// not starved of CPU by the API tests' servers on a small machine.
let vitestCode = 0;
for (const group of [projects.filter((p) => p !== 'web'), ['web']]) {
  console.log(`• unit and API tests (Vitest: ${group.join(', ')})`);
  const json = path.join(tmp, `vitest-${group[0]}.json`);
  const code = await run(process.execPath, [
    path.join(root, 'node_modules/vitest/vitest.mjs'),
    'run',
    ...group.flatMap((p) => ['--project', p]),
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${json}`,
  ]);
  const before = failed;
  count(json, (r) => [r.numPassedTests, r.numFailedTests + (r.numRuntimeErrorTestSuites ?? 0)]);
  if (code !== 0 && failed === before) failed += 1;
  vitestCode ||= code;
}

console.log('• build');
await must(process.execPath, [path.join(root, 'scripts/build.mjs')]);

const chromium = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
if (!fs.existsSync(chromium)) {
  console.error(
    `\nChromium is missing at ${chromium}: the browser journeys need it. Install it with\n  apt-get install -y chromium\n(or set CHROMIUM_PATH).`,
  );
  failed += 1;
  finish(1);
}
console.log('• browser journeys (Playwright)');
const pwJson = path.join(tmp, 'playwright.json');
const pwCode = await run(
  process.execPath,
  [path.join(root, 'node_modules/@playwright/test/cli.js'), 'test', '-c', 'e2e/playwright.config.ts'],
  {
    env: { ...process.env, PLAYWRIGHT_JSON_OUTPUT_NAME: pwJson },
  },
);
count(pwJson, (r) => [r.stats.expected, r.stats.unexpected + (r.stats.flaky ?? 0) * 0]);
if (pwCode !== 0 && !failed) failed += 1;
finish(vitestCode || pwCode);
