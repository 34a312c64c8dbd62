// Shared set-up of the benchmarks: the built server on a fresh database (SQLite or MariaDB), a
// subject with a superuser, and a signed-in API caller.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';

export const root = path.resolve(import.meta.dirname, '..');

let databasePid;
/**
 * The CPU time (ms, user + system, from /proc at 100 ticks a second) the MariaDB server on this
 * machine (a `mariadbd` or `mysqld` process) has used so far, or null where there is none to read.
 * It includes whatever other clients make it do meanwhile: the benches read it around their calls.
 */
export function databaseCpuMs() {
  try {
    databasePid ??=
      fs
        .readdirSync('/proc')
        .filter((d) => /^\d+$/.test(d))
        .find((pid) => {
          try {
            return /^(mariadbd|mysqld)$/.test(fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim());
          } catch {
            return false;
          }
        }) ?? null;
    if (!databasePid) return null;
    const stat = fs.readFileSync(`/proc/${databasePid}/stat`, 'utf8');
    // the fields after the command's closing parenthesis: utime and stime are the 12th and 13th
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

/**
 * The benches' HTTP client: `total` requests to `url`'s server, `concurrency` in flight over one
 * keep-alive agent. `request(i)` gives the i-th request's `{path, method, headers, body}` (each
 * left out: a GET of `url`'s path without headers); `collect(i, status, text)`, when given, gets
 * each answer's body (otherwise bodies are read and dropped). A failure is an answer other than
 * 200 or a network error. Returns req/s, p50 and p99 latency (ms), failures and seconds.
 */
export async function keepAliveLoad({ url, total, concurrency, request, collect }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const target = new URL(url);
  const latencies = [];
  let next = 0;
  let failed = 0;
  const one = (i) =>
    new Promise((resolve) => {
      const r = request ? request(i) : {};
      const t0 = performance.now();
      const req = http.request(
        {
          agent,
          host: target.hostname,
          port: target.port,
          path: r.path ?? target.pathname,
          method: r.method ?? 'GET',
          headers: r.headers ?? {},
        },
        (res) => {
          const chunks = [];
          if (collect) res.on('data', (c) => chunks.push(c));
          else res.resume();
          res.on('end', () => {
            latencies.push(performance.now() - t0);
            if (res.statusCode !== 200) failed++;
            if (collect) collect(i, res.statusCode, Buffer.concat(chunks).toString());
            resolve();
          });
        },
      );
      req.on('error', () => {
        failed++;
        resolve();
      });
      req.end(r.body);
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
  return { perSecond: Math.round(total / seconds), p50: q(0.5), p99: q(0.99), failed, seconds };
}

/** Chromium as the benches launch it: CHROMIUM_PATH, or Debian's /usr/bin/chromium. */
export const chromiumPath = () => process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/**
 * Stops a bench before any seeding when a program it needs is missing, with what installs it
 * (.ci/run and .ci/hardware.sh install them for the tests): `tools` maps a program (a name on the
 * PATH or an absolute path) to its Debian package.
 */
export function requireTools(tools) {
  const found = (name) =>
    name.includes('/')
      ? fs.existsSync(name)
      : (process.env.PATH ?? '').split(path.delimiter).some((dir) => dir && fs.existsSync(path.join(dir, name)));
  const missing = Object.entries(tools).filter(([name]) => !found(name));
  if (!missing.length) return;
  for (const [name, pkg] of missing) console.error(`${name} is missing: apt-get install -y ${pkg}`);
  process.exit(1);
}

export async function startBench(db, { webDist, env = {} } = {}) {
  // BENCH_BACKEND_DIST: another build of the backend (e.g. one of your own beside a shared tree's)
  const dist = path.resolve(process.env.BENCH_BACKEND_DIST ?? `${root}/backend/dist`);
  const { createApp } = await import(`${dist}/app.factory.js`);
  const { loadConfig } = await import(`${dist}/config/config.js`);
  const { hashPassword } = await import(`${dist}/common/crypto.js`);
  const { DataSource } = await import('typeorm');
  // BENCH_REUSE: a database kept by an earlier run (BENCH_KEEP), the MariaDB database's name or the
  // SQLite data folder, used as it is (its subject and user too), and kept again afterwards
  const reuse = process.env.BENCH_REUSE;
  const dataDir =
    reuse && db !== 'mariadb' ? path.resolve(reuse) : fs.mkdtempSync(path.join(os.tmpdir(), 'accredo-bench-'));
  const dbName = reuse && db === 'mariadb' ? reuse : `accredo_bench_${Date.now().toString(36)}`;
  const mariadb = process.env.TEST_MARIADB_URL ?? 'mysql://root@127.0.0.1:3306';
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'error',
    PASSWORD_HASH_COST: '10',
    WEB_DIST: webDist ?? path.join(dataDir, 'none'),
    ...(db === 'mariadb' ? { DATABASE_URL: `${mariadb}/${dbName}` } : {}),
    ...env,
  });
  const app = await createApp(config);
  await app.listen(0, '127.0.0.1');
  const base = `http://127.0.0.1:${app.getHttpServer().address().port}/api/admin/v1`;
  const ds = app.get(DataSource);
  const now = new Date().toISOString().slice(0, 23).replace('T', ' ');
  const q = db === 'mariadb' ? '`' : '"';
  const kept = reuse && (await ds.query(`SELECT id FROM subject WHERE pathToFiles = 'bench'`)).length;
  if (!kept)
    await ds.query(
      `INSERT INTO subject (name, ${q}key${q}, deviceKey, pathToFiles, multiLanguage, timeZone, extensions, createdAt) VALUES ('Bench', 'bench', 'BENCHKEY', 'bench', 0, 'Europe/Prague', '[]', ?)`,
      [now],
    );
  const [{ id: subjectId }] = await ds.query(`SELECT id FROM subject WHERE pathToFiles = 'bench'`);
  if (!kept)
    await ds.query(
      `INSERT INTO admin_user (subjectId, login, passwordHash, name, active, verified, superuser, manageuser, rights, language, createdAt, updatedAt) VALUES (?, 'bench@example.com', ?, 'Bench', 1, 1, 1, 0, '{}', 'en', ?, ?)`,
      [subjectId, await hashPassword('bench-password', 10), now, now],
    );
  const login = await fetch(`${base}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ login: 'bench@example.com', password: 'bench-password' }),
  });
  const token = (await login.json()).data.token;
  const call = async (method, p, body) => {
    const res = await fetch(base + p, {
      method,
      headers: { authorization: token, 'content-type': 'application/json' },
      body: body ? JSON.stringify(body) : undefined,
    });
    if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  const stop = async () => {
    await app.close();
    const keep = process.env.BENCH_KEEP || reuse;
    if (keep) console.log(`kept database ${db === 'mariadb' ? dbName : dataDir} (BENCH_KEEP / BENCH_REUSE)`);
    else if (db === 'mariadb') {
      const admin = await new DataSource({ type: 'mariadb', url: `${mariadb}/` }).initialize();
      await admin.query(`DROP DATABASE IF EXISTS \`${dbName}\``);
      await admin.destroy();
    }
    if (!keep) fs.rmSync(dataDir, { recursive: true, force: true });
  };
  /** The app's provider of a class of the measured build (its path under dist, its export's name). */
  const provider = async (file, name) => app.get((await import(`${dist}/${file}`))[name]);
  return { app, ds, base, token, call, subjectId, now, stop, provider };
}

/**
 * An action running today (yesterday … in a month) with one group and `rows` people in it, seeded
 * by multi-row INSERTs in one transaction (the gate and station benchmarks). Codes are
 * `${prefix}` + 14 digits. Returns the action, the group and the seeding time in seconds.
 */
export async function seedGateAction({ ds, call, subjectId, now }, { name, rows, prefix }) {
  const day = (offset) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  const action = (
    await call('POST', '/action', { name: { cs: name }, dateFrom: `${day(-1)}T00:00`, dateTo: `${day(30)}T23:59` })
  ).data;
  const group = (await call('POST', '/groups', { name: 'Visitors', actionId: action.id })).data;
  const t0 = performance.now();
  const BATCH = 500;
  await ds.transaction(async (m) => {
    for (let i = 0; i < rows; i += BATCH) {
      const n = Math.min(BATCH, rows - i);
      const values = [];
      const params = [];
      for (let k = 0; k < n; k++) {
        const id = i + k + 1;
        values.push("(?, ?, ?, ?, ?, ?, ?, ?, '[]', '{}', 0, 0, 'admin', ?, ?)");
        const bc = `${prefix}${String(id).padStart(14, '0')}`;
        params.push(
          subjectId,
          action.id,
          id,
          `F${id}`,
          `L${id}`,
          `${prefix.toLowerCase()}${id}@example.com`,
          bc,
          bc.toLowerCase(),
          now,
          now,
        );
      }
      await m.query(
        `INSERT INTO accreditation (subjectId, actionId, customId, firstname, lastname, email, bc, search, days, fieldValues, printCount, isUnlimited, source, createdAt, updatedAt) VALUES ${values.join(',')}`,
        params,
      );
    }
    await m.query(
      'INSERT INTO accreditation_group (accreditationId, groupId) SELECT id, ? FROM accreditation WHERE actionId = ?',
      [group.id, action.id],
    );
  });
  return { action, group, seconds: (performance.now() - t0) / 1000 };
}

/**
 * Counts the SQL statements the server sends, on the driver itself, so TypeORM's queries (cached
 * statements too) and the prepared statements of the lean paths (backend/src/database/prepared.ts,
 * the gate) are all counted: on SQLite every run of a better-sqlite3 statement, on MariaDB every
 * mysql2 query or execute of the pool's connections. Returns `count()` and `stop()`, which takes
 * the counting out again (it must not weigh on the timed runs).
 */
export async function countStatements(ds) {
  let n = 0;
  const undo = [];
  const wrap = (proto, names) => {
    for (const name of names) {
      const original = proto[name];
      if (typeof original !== 'function') continue;
      proto[name] = function (...args) {
        n++;
        return original.apply(this, args);
      };
      undo.push(() => {
        proto[name] = original;
      });
    }
  };
  if (ds.options.type === 'better-sqlite3') {
    wrap(Object.getPrototypeOf(ds.driver.databaseConnection.prepare('SELECT 1')), ['all', 'get', 'run', 'iterate']);
  } else {
    const conn = await new Promise((ok, fail) => ds.driver.pool.getConnection((e, c) => (e ? fail(e) : ok(c))));
    wrap(Object.getPrototypeOf(conn), ['query', 'execute']);
    conn.release();
  }
  return {
    count: () => n,
    stop: () => {
      for (const f of undo) f();
    },
  };
}
