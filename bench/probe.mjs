// Probe (issue 10, "Done when"): the built server probed as an attacker and a careless client would.
// Starts the built server on a fresh database (SQLite, or MariaDB with --db mariadb), seeds two
// subjects (a superuser each, an admin without rights, an operator, one row of every kind in the
// first subject, a paired gate device), then walks every route of every controller and sends each a
// bounded set of malformed requests: wrong types, 10 kB and 1 MB strings, control characters, emoji,
// <script>, negative/huge/float ids, missing/extra fields, arrays or scalars instead of objects, null
// and empty bodies, 150-character path parameters, malformed percent-encoding, wrong content types.
// Also: cross-tenant probes (the second subject's superuser on every route that takes an id, with the
// first subject's real ids: must be 404), rights probes (an admin without rights: 403), the device
// protocol with unknown, malformed and revoked tokens, and the security headers of the HTML pages.
//
// Flags: any 5xx; a non-2xx answer that is not {error:{code,message,details}}; a 2xx JSON answer
// without {data}; a missing nosniff / X-Frame-Options (and CSP on HTML); an answer slower than 2 s;
// no answer within 10 s; a failing health check after a route. Prints a summary table and the
// failing examples; exit code 1 if anything was flagged. Beside the answers' latency (p50, p99,
// slowest), a bare Fastify hello-world asked the same way by the same client in the same run (as
// many requests, up to 2,000), and the ratio of the p50s.
//
//   node bench/probe.mjs [--db sqlite|mariadb] [--per-route 60] [--max-seconds 900] [--only substring]
// (build first: npm run build). MariaDB at TEST_MARIADB_URL (default mysql://root@127.0.0.1:3306).
// Everything goes to 127.0.0.1; at most --per-route requests per route and --max-seconds in total.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

const root = path.resolve(import.meta.dirname, '..');
const { values: opts } = parseArgs({
  options: {
    db: { type: 'string', default: 'sqlite' },
    'per-route': { type: 'string', default: '60' },
    'max-seconds': { type: 'string', default: '900' },
    only: { type: 'string' },
    verbose: { type: 'boolean', default: false },
  },
});
const PER_ROUTE = Number(opts['per-route']);
const DEADLINE = Date.now() + Number(opts['max-seconds']) * 1000;
const SLOW_MS = 2000;
const TIMEOUT_MS = 10_000;
const PASSWORD = 'probe-password-1';
const OPERATOR = 'operator@probe.test';

// ---------------------------------------------------------------- server

const { createApp } = await import(`${root}/backend/dist/app.factory.js`);
const { loadConfig } = await import(`${root}/backend/dist/config/config.js`);
const { hashPassword } = await import(`${root}/backend/dist/common/crypto.js`);
const { CONTROLLERS } = await import(`${root}/backend/dist/app.module.js`);
const { ACCESS_KEY } = await import(`${root}/backend/dist/common/access.js`);
const { METHOD_METADATA, PATH_METADATA } = await import('@nestjs/common/constants.js');
const { RequestMethod } = await import('@nestjs/common');
const { DataSource } = await import('typeorm');

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'accredo-probe-'));
const dbName = `accredo_probe_${Date.now().toString(36)}`;
const mariadb = process.env.TEST_MARIADB_URL ?? 'mysql://root@127.0.0.1:3306';
const webDist = path.join(root, 'web', 'dist');
const config = loadConfig({
  DATA_DIR: dataDir,
  LOG_LEVEL: 'error',
  PASSWORD_HASH_COST: '10',
  PUBLIC_URL: 'http://probe.test',
  OPERATOR_EMAIL: OPERATOR,
  OPERATOR_PASSWORD: PASSWORD,
  WEB_DIST: fs.existsSync(path.join(webDist, 'index.html')) ? webDist : path.join(dataDir, 'none'),
  ...(opts.db === 'mariadb' ? { DATABASE_URL: `${mariadb}/${dbName}` } : {}),
});
const app = await createApp(config);
await app.listen(0, '127.0.0.1');
const port = app.getHttpServer().address().port;
const ds = app.get(DataSource);

async function stop() {
  await app.close();
  if (opts.db === 'mariadb') {
    const admin = await new DataSource({ type: 'mariadb', url: `${mariadb}/` }).initialize();
    await admin.query(`DROP DATABASE IF EXISTS \`${dbName}\``);
    await admin.destroy();
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
}

// ---------------------------------------------------------------- HTTP

/** One raw request (the path is sent exactly as given); never throws. */
function send({ method = 'GET', path: p, headers = {}, body, to = port }) {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const buf = body === undefined ? undefined : Buffer.isBuffer(body) ? body : Buffer.from(String(body));
    const h = { ...headers };
    if (buf !== undefined && h['content-length'] === undefined) h['content-length'] = String(buf.length);
    let done = false;
    const finish = (r) => {
      if (done) return;
      done = true;
      resolve({ ...r, ms: performance.now() - t0 });
    };
    const req = http.request({ host: '127.0.0.1', port: to, method, path: p, headers: h, agent: false }, (res) => {
      const chunks = [];
      let size = 0;
      res.on('data', (c) => {
        size += c.length;
        if (size <= 4_000_000) chunks.push(c);
      });
      res.on('end', () =>
        finish({ status: res.statusCode, headers: res.headers, text: Buffer.concat(chunks).toString() }),
      );
      res.on('error', (e) => finish({ status: 0, headers: {}, text: '', error: String(e) }));
    });
    req.setTimeout(TIMEOUT_MS, () => {
      req.destroy();
      finish({ status: 0, headers: {}, text: '', error: `no answer within ${TIMEOUT_MS} ms` });
    });
    req.on('error', (e) => finish({ status: 0, headers: {}, text: '', error: String(e) }));
    req.end(buf);
  });
}

async function api(method, p, { token, manage, device, body, headers = {} } = {}) {
  const h = { ...headers };
  if (token) h.authorization = token;
  if (manage) h['authorization-manage'] = manage;
  if (device) h.authorization = device;
  if (body !== undefined) h['content-type'] = 'application/json';
  const res = await send({ method, path: p, headers: h, body: body === undefined ? undefined : JSON.stringify(body) });
  let parsed;
  try {
    parsed = JSON.parse(res.text);
  } catch {}
  return { ...res, body: parsed };
}
async function must(method, p, options) {
  const res = await api(method, p, options);
  if (res.status < 200 || res.status > 299)
    throw new Error(`set-up ${method} ${p}: ${res.status} ${res.text.slice(0, 400)}`);
  return res.body.data;
}

// ---------------------------------------------------------------- seed

const now = new Date().toISOString().slice(0, 23).replace('T', ' ');
const q = opts.db === 'mariadb' ? '`' : '"';
async function subject(name) {
  await ds.query(
    `INSERT INTO subject (name, ${q}key${q}, deviceKey, pathToFiles, multiLanguage, timeZone, extensions, createdAt) VALUES (?, ?, ?, ?, 0, 'Europe/Prague', '[1,2]', ?)`,
    [name, name.toLowerCase(), `${name.toUpperCase()}KEY0000`.slice(0, 16), name.toLowerCase(), now],
  );
  const [{ id }] = await ds.query('SELECT id FROM subject WHERE pathToFiles = ?', [name.toLowerCase()]);
  return Number(id);
}
async function adminUser(subjectId, login, superuser) {
  await ds.query(
    `INSERT INTO admin_user (subjectId, login, passwordHash, name, active, verified, superuser, manageuser, rights, language, createdAt, updatedAt) VALUES (?, ?, ?, 'Probe', 1, 1, ?, 0, '{}', 'en', ?, ?)`,
    [subjectId, login, await hashPassword(PASSWORD, 10), superuser ? 1 : 0, now, now],
  );
}
const A = '/api/admin/v1';
const signIn = async (login) => `${(await must('POST', `${A}/login`, { body: { login, password: PASSWORD } })).token}`;
const subjectA = await subject('ProbeA');
const subjectB = await subject('ProbeB');
await adminUser(subjectA, 'a@probe.test', true);
await adminUser(subjectA, 'norights@probe.test', false);
await adminUser(subjectB, 'b@probe.test', true);
const tokens = {
  a: await signIn('a@probe.test'),
  b: await signIn('b@probe.test'),
  none: await signIn('norights@probe.test'),
  operator: (await must('POST', '/api/manage/v1/login', { body: { login: OPERATOR, password: PASSWORD } })).token,
};
const t = { token: tokens.a };
const day = (offset) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

const action = await must('POST', `${A}/action`, {
  ...t,
  body: { name: { cs: 'SecretA action' }, dateFrom: `${day(-1)}T00:00`, dateTo: `${day(30)}T23:59` },
});
// both subjects have the meal and parking extensions (so that a cross-tenant probe of their routes
// reaches the id, not the subject's switch), and A's action has them on
for (const type of [1, 2])
  await must('POST', `${A}/action-extension/${type}/${action.id}`, { ...t, body: { active: true } });
const zone = await must('POST', `${A}/zone`, { ...t, body: { name: 'SecretA zone', actionId: action.id } });
const group = await must('POST', `${A}/groups`, { ...t, body: { name: 'SecretA group', actionId: action.id } });
const field = await must('POST', `${A}/custom-field`, {
  ...t,
  body: { name: 'field', label: { cs: 'Field' }, customFieldType: 1 },
});
const template = await must('POST', `${A}/template`, { ...t, body: { name: 'Badge' } });
const mailTemplate = await must('POST', `${A}/mail-template`, { ...t, body: { name: 'Mail', subjectFrom: 'Hello' } });
const user = await must('POST', `${A}/user`, {
  ...t,
  body: { actionId: action.id, firstname: 'SecretA', lastname: 'Probe', email: 'ada@probe.test', groupIds: [group.id] },
});
const channel = await must('POST', `${A}/web-channel`, {
  ...t,
  body: { name: 'SecretA form', actionId: action.id, active: true },
});
const admin = await must('POST', `${A}/admin-user`, {
  ...t,
  body: { login: 'second@probe.test', password: PASSWORD, name: 'Second', active: true },
});
const image = await must('POST', `${A}/image`, { ...t, body: { name: 'Pixel', baseData: PNG } });
const deviceTemplate = await must('POST', `${A}/device-template`, {
  ...t,
  body: { name: 'SecretA gate', actionId: action.id, data: { mode: 1, rules: [{ groupId: group.id, entrances: 0 }] } },
});
const pair = async (uid) => {
  const key = await must('GET', `${A}/device/key`, { token: tokens.a }); // a probe may have rotated it
  const d = await must('POST', '/api/device/v1/pair', { body: { code: key.bc, uid, name: uid } });
  return { token: `Bearer ${d.token}`, id: d.device.id };
};
const gate = await pair('probe-gate');
await must('PUT', `${A}/device/${gate.id}`, {
  ...t,
  body: { name: 'Gate', uid: 'probe-gate', deviceTemplateId: deviceTemplate.id },
});
tokens.device = gate.token;
const userFull = await must('GET', `${A}/user/${action.id}/${user.id}`, t);
const ids = {
  action: action.id,
  zone: zone.id,
  groups: group.id,
  'custom-field': field.id,
  template: template.id,
  'mail-template': mailTemplate.id,
  user: user.id,
  'web-channel': channel.id,
  'admin-user': admin.id,
  image: image.id,
  'device-template': deviceTemplate.id,
  device: gate.id,
  bc: userFull.bc ?? user.bc,
  key: channel.channelKey,
  subject: subjectA,
};

// ---------------------------------------------------------------- routes

function routes() {
  return CONTROLLERS.flatMap((controller) => {
    const base = String(Reflect.getMetadata(PATH_METADATA, controller) ?? '');
    const classAccess = Reflect.getMetadata(ACCESS_KEY, controller);
    return Object.getOwnPropertyNames(controller.prototype)
      .filter((name) => name !== 'constructor')
      .map((name) => controller.prototype[name])
      .filter((fn) => Reflect.getMetadata(PATH_METADATA, fn) !== undefined)
      .map((fn) => ({
        method: RequestMethod[Reflect.getMetadata(METHOD_METADATA, fn)],
        path: `/${base}/${String(Reflect.getMetadata(PATH_METADATA, fn))}`.replace(/\/+/g, '/').replace(/\/$/, ''),
        access: Reflect.getMetadata(ACCESS_KEY, fn) ?? classAccess,
        name: `${controller.name}.${fn.name}`,
      }));
  });
}

/** The real id of the first subject's row a path parameter names. */
function realParam(route, param, segments, index) {
  if (param === 'actionId') return ids.action;
  if (param === 'bc') return ids.bc;
  if (param === 'key' || param === 'channelKey') return ids.key;
  if (param === 'subjectId') return ids.subject;
  const before = segments[index - 1];
  if (route.path.startsWith('/api/manage/')) return before === 'subject' ? ids.subject : ids['admin-user'];
  const alias = {
    'user-credit': 'user',
    'forgot-password': 'admin-user',
    verify: 'admin-user',
    'external-code': 'web-channel',
  };
  return ids[alias[before] ?? before] ?? 1;
}
function concrete(route, replace) {
  const segments = route.path.split('/');
  return segments
    .map((s, i) =>
      s.startsWith(':') ? String(replace(s.slice(1), segments, i) ?? realParam(route, s.slice(1), segments, i)) : s,
    )
    .join('/');
}

function authFor(route, which = 'a') {
  const kind = route.access?.kind;
  if (kind === 'admin') return { authorization: tokens[which] };
  if (kind === 'manage') return { 'authorization-manage': tokens.operator };
  if (kind === 'device') return { authorization: tokens.device };
  return {};
}

// ---------------------------------------------------------------- checks

const flags = [];
const stats = new Map(); // group -> {requests, flagged, slow}
let total = 0;
const latencies = [];
function record(group, route, probe, res, problems) {
  total++;
  if (res.status) latencies.push(res.ms);
  const s = stats.get(group) ?? { requests: 0, flagged: 0, worst: 0, ok: 0, refused: 0 };
  s.requests++;
  if (res.status >= 200 && res.status < 300) s.ok++;
  else if (res.status >= 400 && res.status < 500) s.refused++;
  s.worst = Math.max(s.worst, res.ms);
  if (problems.length) {
    s.flagged++;
    flags.push({
      group,
      route: `${route.method} ${route.path}`,
      probe,
      status: res.status,
      problems,
      answer: (res.error ?? res.text).slice(0, 300),
    });
  }
  stats.set(group, s);
}

/** What is wrong with an answer, by the rules of the issue. */
function check(res) {
  const problems = [];
  if (res.status === 0) return [res.error ?? 'no answer'];
  if (res.status >= 500) problems.push(`${res.status}`);
  if (res.ms > SLOW_MS) problems.push(`slow ${Math.round(res.ms)} ms`);
  const type = String(res.headers['content-type'] ?? '');
  if (res.headers['x-content-type-options'] !== 'nosniff') problems.push('no nosniff');
  if (!res.headers['x-frame-options']) problems.push('no x-frame-options');
  if (type.includes('text/html') && !res.headers['content-security-policy']) problems.push('html without CSP');
  let body;
  try {
    body = JSON.parse(res.text);
  } catch {}
  if (res.status >= 200 && res.status < 300) {
    if (type.includes('application/json') && (!body || typeof body !== 'object' || !('data' in body)))
      problems.push('2xx JSON without {data}');
  } else if (res.status !== 304) {
    const e = body?.error;
    if (!e || typeof e.code !== 'string' || typeof e.message !== 'string' || !('details' in e))
      problems.push('not the error envelope');
    if (/\bat [\w.<>]+ \(|node_modules|\.ts:\d+|\.js:\d+/.test(res.text)) problems.push('stack trace');
  }
  return problems;
}

async function health() {
  const res = await send({ path: '/api/health' });
  return res.status === 200 && res.ms <= SLOW_MS
    ? null
    : `health check: ${res.status} ${res.error ?? ''} ${Math.round(res.ms)} ms`;
}

/** Keeps the probe's own sessions usable (a probe may have logged out or unpaired one). */
async function keepSessions() {
  for (const [k, login] of [
    ['a', 'a@probe.test'],
    ['b', 'b@probe.test'],
    ['none', 'norights@probe.test'],
  ]) {
    const r = await api('GET', `${A}/authorization`, { token: tokens[k] });
    if (r.status === 401) tokens[k] = await signIn(login);
  }
  const m = await api('GET', '/api/manage/v1/subject', { manage: tokens.operator });
  if (m.status === 401)
    tokens.operator = (
      await must('POST', '/api/manage/v1/login', { body: { login: OPERATOR, password: PASSWORD } })
    ).token;
  const d = await api('GET', '/api/device/v1/config', { device: tokens.device });
  if (d.status === 401) {
    const again = await pair(`probe-gate-${Date.now()}`);
    tokens.device = again.token;
  }
}

// ---------------------------------------------------------------- probes

const K10 = 'x'.repeat(10_000);
const M1 = 'y'.repeat(1_000_000);
const NASTY = '<script>alert(1)</script>\u0000\u0001\u001b[31m\u202e😀𝕏\uFFFF\uD800';
const FIELDS = [
  'name',
  'label',
  'login',
  'email',
  'firstname',
  'lastname',
  'actionId',
  'groupIds',
  'zones',
  'days',
  'customField',
  'userId',
  'all',
  'filterData',
  'page',
  'pageSize',
  'type',
  'data',
  'html',
  'htmlData',
  'subjectFrom',
  'code',
  'bc',
  'uid',
  'nonce',
  'direction',
  'amount',
  'scans',
  'dateFrom',
  'dateTo',
  'id',
  'zoneId',
  'groupId',
  'deviceTemplateId',
  'authorizationType',
  'numberUseExtCode',
  'active',
  'language',
  'baseData',
  'imageData',
  'phrase',
  'mailCopy',
  'templateId',
  'subjectId',
  'credit',
  'value',
  'rows',
  'file',
  'passwordLink',
  'key',
  'deleteType',
];
const bag = (value) => Object.fromEntries(FIELDS.map((f) => [f, value]));
const deep = (n) => '['.repeat(n) + ']'.repeat(n);
/** The base body with its string leaves (or number leaves) replaced, the rest kept. */
function leaves(value, onString, onNumber) {
  if (Array.isArray(value)) return value.map((v) => leaves(v, onString, onNumber));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, leaves(v, onString, onNumber)]));
  if (typeof value === 'string' && onString) return onString;
  if (typeof value === 'number' && onNumber !== undefined) return onNumber;
  return value;
}

const PARAMS = [
  '-1',
  '0',
  '1.5',
  '1e3',
  '99999999999999999999999',
  '9007199254740993',
  'abc',
  'a'.repeat(150),
  '%E0%A4%A',
  '%00',
  '%3Cscript%3E',
  encodeURIComponent('😀'),
  '..%2F..%2Fetc%2Fpasswd',
  '%20',
  '%01',
  'null',
];
const QUERIES = [
  '?page=-1&pageSize=1e9&limit=-5&after=-1',
  '?page=abc&pageSize=1.5&actionId=x&cursor=%00',
  `?phrase=${'q'.repeat(10_000)}`,
  '?actionId[]=1&actionId[]=2&actionId=3',
  '?actionId=%ZZ&phrase=%E0%A4%A',
  `?q=${encodeURIComponent(NASTY.replace('\uD800', ''))}`,
  '?__proto__[x]=1&constructor[prototype][x]=1',
  '?subjectId=99999999999999999999&day=2026-13-45&actionId=1e308&limit=99999999999&q=%F0%9F%98%80%F0%9F%98%80%F0%9F%98%80',
  `?day=%3Cscript%3E&actionId=2147483648&subjectId=-1&cursor=${'%FF'.repeat(50)}&q=${'q'.repeat(300)}`,
];

/** The body probes of a route that takes one (base: a body the route accepts, when we know one). */
function bodyProbes(base) {
  const json = { headers: { 'content-type': 'application/json' } };
  const j = (v) => ({ ...json, body: JSON.stringify(v) });
  const fromBase = (value) => j(Object.fromEntries(Object.keys(base ?? {}).map((k) => [k, value])));
  return [
    ['null body', j(null)],
    ['array body', j([])],
    ['array of objects', j([{}])],
    ['string body', j('text')],
    ['number body', j(42)],
    ['empty object', j({})],
    ['json, no body', { headers: { 'content-type': 'application/json' }, body: '' }],
    ['truncated json', { headers: { 'content-type': 'application/json' }, body: '{"name": "x' }],
    ['deep nesting', { headers: { 'content-type': 'application/json' }, body: deep(5000) }],
    [
      'prototype pollution',
      {
        headers: { 'content-type': 'application/json' },
        body: '{"__proto__":{"x":1},"constructor":{"prototype":{"x":1}}}',
      },
    ],
    ['fields: 10 kB strings', j(bag(K10))],
    ['fields: 1 MB string', j({ ...bag('a'), name: M1, login: M1, code: M1 })],
    ['fields: nasty text', j(bag(NASTY))],
    ['fields: null', j(bag(null))],
    ['fields: arrays', j(bag([1, 'x', null]))],
    ['fields: objects', j(bag({ a: { b: 1 } }))],
    ['fields: negative', j(bag(-1))],
    ['fields: huge', j(bag(1e308))],
    ['fields: float', j(bag(1.5))],
    ['fields: booleans', j(bag(true))],
    ['base, every field 10 kB', fromBase(K10)],
    ['base, every field nasty', fromBase(NASTY)],
    ['base, every field negative', fromBase(-99999999999)],
    ['base, strings nasty', j(leaves(base, NASTY))],
    ['base, strings emoji', j(leaves(base, '😀𝕏🏳️‍🌈'.repeat(20)))],
    ['base, strings 10 kB', j(leaves(base, K10))],
    ['base, strings 256 chars', j(leaves(base, 'ž'.repeat(256)))],
    ['base, strings control', j(leaves(base, '\u0000\u0007\r\n\t\u001b'))],
    ['base, numbers 2^31', j(leaves(base, undefined, 2147483648))],
    [
      'base, numbers 2^53+1',
      { ...json, body: JSON.stringify(leaves(base, undefined, 'BIG')).replaceAll('"BIG"', '9007199254740993') },
    ],
    ['base, numbers -1', j(leaves(base, undefined, -1))],
    ['base, numbers 1.5', j(leaves(base, undefined, 1.5))],
    ['base, numbers as strings', j(leaves(base, undefined, '12abc'))],
    ['base + extra fields', j({ ...(base ?? {}), extra: 1, subjectId: subjectB, id: 999999, __proto__x: 1 })],
    ['text/plain', { headers: { 'content-type': 'text/plain' }, body: 'hello' }],
    ['form urlencoded', { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'a=1&b=%ZZ' }],
    ['xml', { headers: { 'content-type': 'application/xml' }, body: '<a>1</a>' }],
    ['multipart garbage', { headers: { 'content-type': 'multipart/form-data; boundary=zz' }, body: '--zz\r\ngarbage' }],
    ['no content-type', { headers: {}, body: '{"a":1}' }],
    [
      'json charset latin1',
      { headers: { 'content-type': 'application/json; charset=latin1' }, body: '{"a":"\u00e9"}' },
    ],
  ];
}

/** A PNG whose header claims a size (a picture is never decoded: its header is its size). */
function pngOfSize(width, height) {
  const b = Buffer.from(PNG.split(',')[1], 'base64');
  b.writeUInt32BE(width, 16);
  b.writeUInt32BE(height, 20);
  return `data:image/png;base64,${b.toString('base64')}`;
}
const PICTURES = [
  ['png 2^32-1 wide', pngOfSize(0xffffffff, 1)],
  ['png 2^31 high', pngOfSize(1, 0x80000000)],
  [
    'gif header only',
    `data:image/gif;base64,${Buffer.from('GIF89a\xff\xff\xff\xff\0\0', 'latin1').toString('base64')}`,
  ],
  [
    'jpeg segments loop',
    `data:image/jpeg;base64,${Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0, 0xff, 0xe0, 0, 0, 0, 0, 0]).toString('base64')}`,
  ],
  [
    'svg with script',
    `data:image/svg+xml;base64,${btoa('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')}`,
  ],
  ['html as png', `data:image/png;base64,${btoa('<html><script>alert(1)</script></html>')}`],
  ['bad base64', 'data:image/png;base64,%%%==='],
];

/** Bodies the create and update routes accept (for the base of the body probes). */
const FILTER = {
  text: '%_!\\',
  groupId: group.id,
  zoneId: zone.id,
  printed: 1,
  entrance: 2,
  entranceDate: day(0),
  customField: { [field.id]: '%' },
};
const bulk = { actionId: action.id, userId: [user.id], all: false, filterData: FILTER };
const BASES = {
  [`POST ${A}/action`]: { name: { cs: 'P' }, dateFrom: `${day(0)}T00:00`, dateTo: `${day(1)}T00:00` },
  [`POST ${A}/zone`]: { name: 'Z', actionId: action.id },
  [`POST ${A}/groups`]: { name: 'G', actionId: action.id },
  [`POST ${A}/template`]: { name: 'T', htmlData: '<p>{{firstname}}</p>' },
  [`POST ${A}/mail-template`]: { name: 'M', subjectFrom: 'S' },
  [`POST ${A}/user`]: { actionId: action.id, firstname: 'F', lastname: 'L', email: 'f@probe.test' },
  [`POST ${A}/user/filter`]: { actionId: action.id, page: 1, pageSize: 50, filterData: FILTER },
  [`POST ${A}/web-channel`]: { name: 'W', actionId: action.id, active: true },
  [`POST ${A}/custom-field`]: { name: 'f2', label: { cs: 'F2' }, customFieldType: 1 },
  [`POST ${A}/login`]: { login: 'a@probe.test', password: 'wrong' },
  [`POST /api/manage/v1/login`]: { login: OPERATOR, password: 'wrong' },
  [`POST /api/device/v1/scan`]: { code: 'ABC', direction: 'entry', nonce: 'n1' },
  [`POST /api/device/v1/upload`]: { scans: [{ code: 'ABC', nonce: 'n2', scanTime: Date.now() }] },
  [`POST /api/device/v1/pair`]: { code: 'WRONG', uid: 'u', name: 'n' },
  [`POST ${A}/user/all`]: { actionId: action.id, page: 1, pageSize: 50, filterData: FILTER },
  [`POST ${A}/user/assign-groups`]: { ...bulk, groupsId: [group.id] },
  [`POST ${A}/user/assign-zone`]: { ...bulk, zones: [zone.id], zoneId: [zone.id] },
  [`POST ${A}/user/assign-days`]: { ...bulk, days: [day(1)] },
  [`POST ${A}/user/copy`]: { actualAction: action.id, actionId: action.id, userId: [user.id], all: false },
  [`POST ${A}/user/delete`]: { ...bulk, userId: [999999], type: 1 },
  [`POST ${A}/user/export`]: bulk,
  [`POST ${A}/user/export/images`]: bulk,
  [`POST ${A}/user/print`]: { ...bulk, type: 'html' },
  [`POST ${A}/user/import`]: {
    actionId: action.id,
    dataFile: `data:text/csv;base64,${btoa('a;b\n1;2')}`,
    zonesImportType: 1,
  },
  [`POST ${A}/image/import`]: { actionId: action.id, images: [{ imageName: 'X.png', imageData: PNG }] },
  [`POST ${A}/image/all`]: { page: 1, pageSize: 24, type: 3, phrase: 'p' },
  [`POST ${A}/image`]: { name: 'img', type: 3, baseData: PNG },
  [`POST ${A}/email/send`]: { actionId: action.id, userIds: [user.id], all: false, mailTemplate: mailTemplate.id },
  [`POST ${A}/template/validate`]: { data: '{{firstname}} {{#each x}}{{/each}} {{lookup this "constructor"}}' },
  [`POST ${A}/template/preview`]: {
    data: '{{constructor.constructor}} {{firstname}}',
    count: 1,
    type: 'html',
    pageSize: 'A6',
  },
  [`PUT ${A}/user-credit/:id/unlimited`]: { isUnlimited: true },
  [`POST ${A}/action-extension/:type/:actionId`]: { active: true },
  [`POST ${A}/action-extension/:type/:actionId/copy`]: { fromDay: day(0), toDays: [day(1)] },
  [`POST ${A}/action-extension/:type/:actionId/users`]: { page: 1, pageSize: 50 },
  [`PUT ${A}/action-extension/:type/:actionId/users`]: { items: [], usersIds: [user.id], actionId: action.id },
  [`PUT ${A}/action-extension/:type/:actionId/groups/:groupId`]: { items: [], actionId: action.id },
  [`POST ${A}/action-extension/:type/:actionId/report`]: { responseType: 'json' },
  [`POST ${A}/report`]: { type: 1, actionId: action.id, dateFrom: day(-1), dateTo: day(1), responseType: 'json' },
  [`POST ${A}/report/entrance`]: { actionId: action.id, dateFrom: day(-1), dateTo: day(1) },
  [`POST ${A}/device-template/simulate`]: {
    actionId: action.id,
    data: { mode: 1, rules: [{ groupId: group.id, entrances: 1 }] },
    at: `${day(0)}T12:00`,
  },
  [`POST ${A}/device/simulate-person`]: {
    deviceTemplateId: deviceTemplate.id,
    code: 'ABC',
    bc: 'ABC',
    at: `${day(0)}T12:00`,
  },
  [`POST ${A}/web-channel/external-code/import`]: {
    dataFile: btoa('CODE1;3\nCODE2'),
    numberUseExtCode: 1,
    existing: [],
  },
  [`POST ${A}/actual/subject`]: { subjectId: subjectA },
  [`PUT ${A}/actual/action`]: { actionId: action.id },
  [`POST /api/manage/v1/subject`]: { name: 'S', key: 'skey', pathToFiles: 'spath', timeZone: 'Europe/Prague' },
  [`POST /api/manage/v1/admin-user`]: { subjectId: subjectA, login: 'm@probe.test', name: 'M', password: PASSWORD },
  [`POST /api/online/v1/web-channel/login`]: { channelKey: channel.channelKey, login: 'x', password: 'y', code: 'z' },
  [`POST /api/online/v1/accreditation/:key`]: { firstname: 'On', lastname: 'Line', email: 'on@probe.test' },
  [`POST ${A}/login/forgot-password`]: { login: 'nobody@probe.test' },
  [`POST ${A}/login/renew-password`]: {
    passwordLink: 'x'.repeat(43),
    password: 'new-password-1',
    confirmPassword: 'new-password-1',
  },
  [`PUT ${A}/custom-field/:id`]: { name: 'field', label: { cs: 'Field' }, customFieldType: 1 },
  [`PUT ${A}/user/:id`]: { actionId: action.id, firstname: 'Ada', lastname: 'Probe', email: 'ada@probe.test' },
  [`PUT ${A}/user-credit/:id`]: { price: 10, type: 1 },
  [`POST ${A}/mail-template/:id/test`]: { email: 'test@probe.test' },
};

async function baseFor(route, p) {
  const key = `${route.method} ${route.path}`;
  if (BASES[key]) return BASES[key];
  if (route.method === 'PUT' && route.access?.kind === 'admin') {
    const got = await api('GET', p, { token: tokens.a });
    if (got.status === 200 && got.body?.data && typeof got.body.data === 'object' && !Array.isArray(got.body.data))
      return got.body.data;
  }
  return { name: 'x', actionId: action.id };
}

async function probeRoute(route) {
  const group = route.path
    .split('/')
    .slice(0, 5)
    .join('/')
    .replace(/\/:\w+$/, '');
  const list = [];
  const params = route.path.includes(':');
  const real = concrete(route, () => undefined);
  const hasBody = ['POST', 'PUT', 'PATCH'].includes(route.method);
  const auth = authFor(route);
  // path parameters (not on DELETE with real ids: the probe's rows stay)
  if (params)
    for (const v of PARAMS)
      list.push([
        `param ${v.slice(0, 30)}`,
        concrete(route, () => v),
        hasBody ? { headers: { 'content-type': 'application/json' }, body: '{}' } : {},
      ]);
  if (route.method === 'GET') for (const qs of QUERIES) list.push([`query ${qs.slice(0, 40)}`, real + qs, {}]);
  if (hasBody && !/logout|unpair|rotate/.test(route.path)) {
    const base = await baseFor(route, real);
    for (const [name, b] of bodyProbes(base)) list.push([name, real, b]);
  }
  if (route.access?.kind !== 'public') {
    list.push(['token: garbage', real, { auth: { authorization: 'x', 'authorization-manage': 'x' } }]);
    list.push(['token: 10 kB', real, { auth: { authorization: `Bearer ${K10}`, 'authorization-manage': K10 } }]);
  }
  list.push([
    'accept-language garbage',
    real,
    { headers: { 'accept-language': `<script>;q=abc,*;q=2,\xe9\xff,${K10.slice(0, 2000)}` } },
  ]);
  for (const [name, p, o] of list.slice(0, PER_ROUTE)) {
    if (Date.now() > DEADLINE) return false;
    const headers = { ...(o.auth ?? auth), ...(o.headers ?? {}) };
    const method = route.method === 'DELETE' && !params ? 'DELETE' : route.method;
    const res = await send({ method, path: p, headers, body: o.body });
    record(group, route, name, res, check(res));
    if (opts.verbose) console.log(route.method, p.slice(0, 80), name, res.status, Math.round(res.ms));
  }
  const h = await health();
  if (h) record(group, route, 'health after the route', { status: 0, ms: 0, error: h }, [h]);
  await keepSessions();
  return true;
}

/** Path parameters that are not a row's id. */
const NOT_IDS = new Set([':type']);

/** The second subject's superuser on the first subject's rows: 404 everywhere. */
async function crossTenant(all) {
  for (const route of all) {
    if (route.access?.kind !== 'admin' || route.access.manageuser || !route.path.includes(':')) continue;
    // a path whose only parameter is a kind (action-extension/:type), not a row's id, names nothing of A's
    if ((route.path.match(/:\w+/g) ?? []).every((name) => NOT_IDS.has(name))) continue;
    const p = concrete(route, () => undefined);
    const body = ['POST', 'PUT'].includes(route.method) ? await baseFor(route, p) : undefined;
    const res = await api(route.method, p, { token: tokens.b, body });
    const problems = check(res);
    if (res.status !== 404) problems.push(`cross-tenant: ${res.status}, not 404`);
    if (res.text.includes('SecretA')) problems.push('cross-tenant: the answer shows subject A data');
    record('cross-tenant', route, `subject B on ${p}`, res, problems);
  }
  // ids in bodies: B acting on A's rows must change nothing and see nothing
  const viaBody = [
    ['POST', `${A}/user/filter`, { actionId: action.id, page: 1, pageSize: 50, filterData: {} }],
    ['POST', `${A}/user/all`, { actionId: action.id }],
    ['POST', `${A}/user/assign-groups`, { actionId: action.id, userId: [user.id], groupIds: [group.id], all: false }],
    ['POST', `${A}/user/assign-zone`, { actionId: action.id, userId: [user.id], zones: [zone.id], all: false }],
    ['POST', `${A}/user/delete`, { actionId: action.id, userId: [user.id], all: false, type: 1 }],
    ['POST', `${A}/user/print`, { actionId: action.id, userId: [user.id], templateId: template.id }],
    ['POST', `${A}/user/export`, { actionId: action.id, userId: [user.id], all: false }],
    ['POST', `${A}/user`, { actionId: action.id, firstname: 'X', lastname: 'Y', email: 'x@probe.test' }],
    ['POST', `${A}/groups`, { name: 'X', actionId: action.id, zoneId: [zone.id] }],
    ['PUT', `${A}/actual/action`, { actionId: action.id }],
    [
      'POST',
      `${A}/email/send`,
      { actionId: action.id, userId: [user.id], mailTemplateId: mailTemplate.id, all: false },
    ],
    ['POST', `${A}/report`, { actionId: action.id, type: 1 }],
    ['POST', `${A}/device/simulate-person`, { deviceTemplateId: deviceTemplate.id, userId: user.id, bc: ids.bc }],
  ];
  for (const [method, p, body] of viaBody) {
    const res = await api(method, p, { token: tokens.b, body });
    const problems = check(res);
    if (res.status >= 200 && res.status < 300) problems.push(`cross-tenant via body: ${res.status}`);
    if (res.text.includes('SecretA')) problems.push('cross-tenant: the answer shows subject A data');
    record('cross-tenant', { method, path: p }, `subject B, A's ids in the body`, res, problems);
  }
  // ids in queries: lists filtered by A's action show nothing of A
  for (const p of [
    `${A}/web-channel?actionId=${action.id}`,
    `${A}/device-template?actionId=${action.id}`,
    `${A}/report/live?actionId=${action.id}`,
    `${A}/dashboard?actionId=${action.id}`,
  ]) {
    const res = await api('GET', p, { token: tokens.b });
    const problems = check(res);
    if (res.text.includes('SecretA')) problems.push('cross-tenant: the answer shows subject A data');
    if (res.status === 200 && Array.isArray(res.body?.data) && res.body.data.length)
      problems.push('cross-tenant: rows of subject A');
    record('cross-tenant', { method: 'GET', path: p }, "subject B, A's action in the query", res, problems);
  }
  const still = await api('GET', `${A}/user/${action.id}/${user.id}`, { token: tokens.a });
  if (still.status !== 200)
    record('cross-tenant', { method: 'GET', path: 'user' }, "A's row after B's probes", still, [
      'A\u2019s row is gone',
    ]);
}

/** An admin without rights: 403 on every route that needs a right. */
async function rights(all) {
  for (const route of all) {
    const a = route.access;
    if (a?.kind !== 'admin' || !(a.right || a.anyRight || a.manageuser)) continue;
    const p = concrete(route, () => undefined);
    const body = ['POST', 'PUT'].includes(route.method) ? await baseFor(route, p) : undefined;
    const res = await api(route.method, p, { token: tokens.none, body });
    const problems = check(res);
    if (res.status !== 403) problems.push(`rights: ${res.status}, not 403`);
    record('rights', route, 'admin without rights', res, problems);
  }
}

/** The device protocol's tokens: unknown, malformed, revoked. */
async function deviceTokens() {
  const revoked = await pair('probe-revoked');
  await must('DELETE', `${A}/device/${revoked.id}`, { token: tokens.a });
  const cases = [
    ['revoked token', revoked.token],
    ['unknown token', `Bearer ${'A'.repeat(43)}`],
    ['no bearer', 'A'.repeat(43)],
    ['empty bearer', 'Bearer '],
    ['admin token', tokens.a],
    ['nasty bearer', `Bearer ${encodeURIComponent(NASTY.replace('\uD800', ''))}`],
  ];
  for (const [name, token] of cases)
    for (const [method, p, body] of [
      ['GET', '/api/device/v1/config'],
      ['POST', '/api/device/v1/scan', { code: ids.bc, nonce: `n${Date.now()}`, direction: 'entry' }],
      ['POST', '/api/device/v1/upload', { scans: [] }],
    ]) {
      const res = await api(method, p, { device: token, body });
      const problems = check(res);
      if (res.status !== 401) problems.push(`device ${name}: ${res.status}, not 401`);
      record('device tokens', { method, path: p }, name, res, problems);
    }
  // a second subject's device must not find the first subject's people
  const keyB = await must('GET', `${A}/device/key`, { token: tokens.b });
  const dB = await must('POST', '/api/device/v1/pair', { body: { code: keyB.bc, uid: 'probe-b', name: 'B' } });
  const scan = await api('POST', '/api/device/v1/scan', {
    device: `Bearer ${dB.token}`,
    body: { code: ids.bc, nonce: `nb${Date.now()}`, direction: 'entry' },
  });
  const problems = check(scan);
  if (scan.status === 200 && scan.body?.data?.allowed) problems.push('subject B device let in subject A person');
  if (scan.status === 200 && JSON.stringify(scan.body).includes('SecretA'))
    problems.push('subject B device sees subject A person');
  record(
    'device tokens',
    { method: 'POST', path: '/api/device/v1/scan' },
    "subject B device, A's code",
    scan,
    problems,
  );
}

/** Pictures with lying headers, on every way a picture comes in. */
async function pictures() {
  for (const [name, data] of PICTURES) {
    const calls = [
      ['POST', `${A}/image`, { name: 'pic', type: 3, baseData: data }],
      ['PUT', `${A}/image/${image.id}`, { name: 'pic', data }],
      ['PUT', `${A}/user/${user.id}`, { ...BASES[`PUT ${A}/user/:id`], imageData: data }],
      ['POST', `${A}/image/import`, { actionId: action.id, images: [{ imageName: `${ids.bc}.png`, imageData: data }] }],
      [
        'POST',
        `/api/online/v1/accreditation/${ids.key}`,
        { firstname: 'P', lastname: 'Q', email: `p${Date.now()}@probe.test`, image: data },
      ],
    ];
    for (const [method, p, body] of calls) {
      const res = await api(method, p, { token: tokens.a, body });
      record('pictures', { method, path: p }, name, res, check(res));
    }
  }
  const h = await health();
  if (h)
    record(
      'pictures',
      { method: 'GET', path: '/api/health' },
      'health after pictures',
      { status: 0, ms: 0, error: h },
      [h],
    );
}

/** Counters near what their int columns hold (2^31-1 on MariaDB): one more must not be a 500. */
async function bounds() {
  await ds.query('UPDATE accreditation SET credit = ? WHERE id = ?', [2_147_483_600, user.id]);
  const res = await api('PUT', `${A}/user-credit/${user.id}`, {
    token: tokens.a,
    body: { price: 10_000_000, type: 1 },
  });
  record('bounds', { method: 'PUT', path: `${A}/user-credit/:id` }, 'credit past 2^31-1', res, check(res));
  await ds.query('UPDATE accreditation SET credit = 0 WHERE id = ?', [user.id]);
  // offline deductions are taken as they happened (D20): three of 10^9 go past -2^31
  const credit = await must('POST', `${A}/device-template`, {
    token: tokens.a,
    body: { name: 'Credit', actionId: action.id, data: { mode: 2, rules: [], globalRule: { enabled: true } } },
  });
  await ds.query('UPDATE action SET isCredit = 1 WHERE id = ?', [action.id]);
  await api('PUT', `${A}/action/${action.id}`, { token: tokens.a, body: { ...action, isCredit: true } }); // refreshes caches
  const till = await pair(`probe-till-${Date.now()}`);
  await must('PUT', `${A}/device/${till.id}`, {
    token: tokens.a,
    body: { name: 'Till', uid: 'probe-till', deviceTemplateId: credit.id },
  });
  const scans = [1, 2, 3].map((i) => ({
    code: ids.bc,
    nonce: `till${Date.now()}x${i}`,
    scanTime: Date.now() - i * 1000,
    amount: 1_000_000_000,
  }));
  const up = await api('POST', '/api/device/v1/upload', { device: till.token, body: { scans } });
  record('bounds', { method: 'POST', path: '/api/device/v1/upload' }, 'offline credit past -2^31', up, check(up));
}

/** Ids past what an int column holds, in every field that names a row: a field error or 404, never a 500. */
async function bigIds() {
  const rest = { userId: [user.id], all: false };
  for (const big of [2147483648, 1e20]) {
    const calls = [
      ['POST', `${A}/groups`, { name: 'G', actionId: action.id, adminTemplateId: big, zoneId: [big] }],
      ['POST', `${A}/zone`, { name: 'Z', actionId: big }],
      ['POST', `${A}/action`, { ...BASES[`POST ${A}/action`], afterMailTemplateId: big, customField: [{ id: big }] }],
      ['POST', `${A}/action`, { ...BASES[`POST ${A}/action`], previewData: { image: big } }],
      ['POST', `${A}/web-channel`, { name: 'W', actionId: action.id, mailTemplateId: big, imageId: big }],
      ['POST', `${A}/web-channel`, { name: 'W', actionId: action.id, groupsId: [big], customField: [big] }],
      ['PUT', `${A}/device/${gate.id}`, { name: 'Gate', uid: 'probe-gate', deviceTemplateId: big }],
      ['POST', `${A}/device-template`, { name: 'T', actionId: big, data: { mode: 1, rules: [] } }],
      [
        'POST',
        `${A}/device-template`,
        { name: 'T', actionId: action.id, data: { mode: 1, rules: [{ groupId: big, entrances: 1 }] } },
      ],
      ['POST', `${A}/user`, { ...BASES[`POST ${A}/user`], email: 'big@probe.test', groupIds: [big], zones: [big] }],
      [
        'POST',
        `${A}/user`,
        { ...BASES[`POST ${A}/user`], email: 'big2@probe.test', imageId: big, customField: [{ id: big, value: 'x' }] },
      ],
      ['POST', `${A}/admin-user`, { login: `big${big}@probe.test`, password: PASSWORD, name: 'B', actionId: big }],
      ['PUT', `${A}/actual/action`, { actionId: big }],
      ['POST', `${A}/actual/subject`, { subjectId: big }],
      ['POST', `${A}/report`, { type: 1, actionId: big, deviceId: big }],
      ['POST', `${A}/report/entrance`, { actionId: big, deviceId: big }],
      [
        'POST',
        `${A}/user/filter`,
        {
          actionId: action.id,
          filterData: { groupId: big, zoneId: big, customField: { '99999999999999999999': 'x' } },
        },
      ],
      ['POST', `${A}/user/assign-groups`, { actionId: action.id, ...rest, groupsId: [big] }],
      ['POST', `${A}/user/assign-zone`, { actionId: action.id, ...rest, zones: [big] }],
      ['POST', `${A}/user/copy`, { actualAction: action.id, actionId: big, ...rest }],
      ['POST', `${A}/email/send`, { actionId: action.id, userIds: [user.id], mailTemplate: big }],
      ['POST', `${A}/user/print`, { actionId: action.id, userId: [big], all: false }],
      [
        'POST',
        '/api/manage/v1/admin-user',
        { subjectId: big, login: `m${big}@probe.test`, name: 'M', password: PASSWORD },
      ],
      ['GET', `${A}/web-channel?actionId=${big}`],
      ['GET', `${A}/report/live?actionId=${big}`],
    ];
    for (const [method, p, body] of calls) {
      const res = await api(method, p, { token: tokens.a, manage: tokens.operator, body });
      record('big ids', { method, path: p }, `id ${big}`, res, check(res));
    }
  }
}

/** Template sources that stress the engine: deep nesting, partials, prototype access, huge output. */
async function templates() {
  const sources = [
    ['deep if', `${'{{#if firstname}}'.repeat(20_000)}x${'{{/if}}'.repeat(20_000)}`],
    ['deep each', `${'{{#each this}}'.repeat(5_000)}x${'{{/each}}'.repeat(5_000)}`],
    ['deep paths', `{{${'a.'.repeat(50_000)}b}}`],
    ['partials', '{{> nope}}{{#> layout}}x{{/layout}}{{#*inline "p"}}{{> p}}{{/inline}}{{> p}}'],
    [
      'prototype',
      '{{__proto__}}{{constructor.name}}{{lookup this "constructor"}}{{#with __proto__}}{{constructor}}{{/with}}',
    ],
    ['unclosed', '{{#if}}{{/each}}{{{{raw}}}}{{'],
    ['many placeholders', '{{firstname}}'.repeat(40_000)],
    ['barcode garbage', '{{barcode "qr" "x"}}{{barcode}}{{qrcode firstname 99999}}{{code128 "\u0000"}}'],
  ];
  await api('PUT', `${A}/groups/${group.id}`, {
    token: tokens.a,
    body: { name: 'SecretA group', actionId: action.id, adminTemplateId: template.id },
  });
  await api('PUT', `${A}/user/${user.id}`, {
    token: tokens.a,
    body: { ...BASES[`PUT ${A}/user/:id`], groupIds: [group.id] },
  });
  for (const [name, data] of sources) {
    const calls = [
      ['POST', `${A}/template/validate`, { data }],
      ['POST', `${A}/template/preview`, { data, count: 20, type: 'html' }],
      ['POST', `${A}/template/preview`, { data, type: 'mail' }],
      ['PUT', `${A}/template/${template.id}`, { name: 'Badge', htmlData: data }],
      ['POST', `${A}/user/print`, { actionId: action.id, userId: [user.id], all: false, type: 'html' }],
      ['PUT', `${A}/mail-template/${mailTemplate.id}`, { name: 'Mail', subjectFrom: data.slice(0, 500), html: data }],
      ['POST', `${A}/mail-template/${mailTemplate.id}/test`, { email: 'test@probe.test' }],
    ];
    for (const [method, p, body] of calls) {
      const res = await api(method, p, { token: tokens.a, body });
      record('templates', { method, path: p }, name, res, check(res));
    }
  }
  const h = await health();
  if (h)
    record(
      'templates',
      { method: 'GET', path: '/api/health' },
      'health after templates',
      { status: 0, ms: 0, error: h },
      [h],
    );
}

/** HTML pages and the docs: security headers. */
async function pages() {
  for (const p of ['/', '/login', '/manage/login', `/app/online/${ids.key}`, '/api/docs', '/gate', '/no-such-page']) {
    const res = await send({ path: p, headers: { accept: 'text/html' } });
    const problems = check(res);
    if (String(res.headers['content-type']).includes('text/html')) {
      const csp = String(res.headers['content-security-policy'] ?? '');
      if (!/frame-ancestors 'none'/.test(csp)) problems.push('CSP without frame-ancestors none');
      if (/script-src[^;]*'unsafe-inline'/.test(csp)) problems.push("CSP allows 'unsafe-inline' script");
      if (!res.headers['referrer-policy']) problems.push('no referrer-policy');
    }
    record('html', { method: 'GET', path: p }, 'page headers', res, problems);
  }
  const docs = await api('GET', '/api/docs-json');
  if (docs.status !== 200 || !docs.body?.paths)
    record('html', { method: 'GET', path: '/api/docs-json' }, 'openapi', docs, ['no OpenAPI']);
}

/** Raw protocol garbage the router sees before any route. */
async function raw() {
  const list = [
    ['GET', `${A}/action/%E0%A4%A`],
    ['GET', `${A}/action/${'9'.repeat(120)}`],
    ['GET', `${A}/${'z'.repeat(5000)}`],
    ['GET', '/api/%'],
    ['GET', '/api//..//..//etc/passwd'],
    ['TRACE', `${A}/action`],
    ['OPTIONS', `${A}/action`],
    ['PATCH', `${A}/action/1`],
    ['DELETE', `${A}/action/1`],
    ['GET', `/api/health?${'a=1&'.repeat(3000)}`],
  ];
  for (const [method, p] of list) {
    const res = await send({ method, path: p, headers: { authorization: tokens.a } });
    const problems = check(res);
    if (method === 'OPTIONS' && res.status === 204) problems.length = 0;
    record('raw', { method, path: p.slice(0, 60) }, 'raw', res, problems);
  }
  // a content-length that lies, and a body far over the limit
  const lie = await send({
    method: 'POST',
    path: `${A}/logout`,
    headers: { 'content-type': 'application/json', 'content-length': 'abc', authorization: tokens.a },
  });
  record('raw', { method: 'POST', path: `${A}/logout` }, 'content-length abc', lie, check(lie));
  const big = await send({
    method: 'POST',
    path: `${A}/login`,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ login: 'x'.repeat(30_000_000) }),
  });
  record('raw', { method: 'POST', path: `${A}/login` }, '30 MB body', big, check(big));
  await keepSessions();
}

// ---------------------------------------------------------------- run

const started = Date.now();
let complete = true;
try {
  let all = routes();
  if (opts.only) all = all.filter((r) => `${r.method} ${r.path}`.includes(opts.only));
  // sign-in routes last: their attempts count towards the address's limit
  const last = (r) => (/login|forgot|authorize|renew|verify-account|pair$/.test(r.path) ? 1 : 0);
  all.sort((x, y) => last(x) - last(y));
  console.log(`${opts.db}: ${all.length} routes, at most ${PER_ROUTE} probes each`);
  await pages();
  await crossTenant(all);
  await rights(all);
  await deviceTokens();
  await raw();
  await pictures();
  await bounds();
  await bigIds();
  await templates();
  for (const route of all) {
    const ok = await probeRoute(route).catch((e) => {
      record('probe errors', route, 'the probe itself', { status: 0, ms: 0, error: String(e) }, [
        String(e).slice(0, 200),
      ]);
      return true;
    });
    if (!ok) {
      complete = false;
      console.log(`time cap reached at ${route.method} ${route.path}`);
      break;
    }
  }
} finally {
  await stop();
}

// the baseline: a bare Fastify hello-world, asked one request at a time like the probes
const Fastify = (await import('fastify')).default;
const bare = Fastify();
bare.get('/', async () => ({ hello: 'world' }));
await bare.listen({ port: 0, host: '127.0.0.1' });
const bareLatencies = [];
for (let i = 0; i < Math.min(Math.max(total, 100), 2000); i++)
  bareLatencies.push((await send({ path: '/', to: bare.server.address().port })).ms);
await bare.close();
const quantile = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(s.length * p))] : 0;
};

console.log(
  `\n${opts.db}: ${total} requests in ${((Date.now() - started) / 1000).toFixed(0)} s${complete ? '' : ' (time cap: incomplete)'}`,
);
const ms = (x) => x.toFixed(1);
console.log(
  `answers p50 ${ms(quantile(latencies, 0.5))} ms, p99 ${ms(quantile(latencies, 0.99))} ms, slowest ${ms(quantile(latencies, 1))} ms; ` +
    `bare Fastify (same client, same run, ${bareLatencies.length} requests) p50 ${ms(quantile(bareLatencies, 0.5))} ms, ` +
    `p99 ${ms(quantile(bareLatencies, 0.99))} ms, slowest ${ms(quantile(bareLatencies, 1))} ms; ` +
    `ratio of the p50s probe/bare ${(quantile(latencies, 0.5) / quantile(bareLatencies, 0.5)).toFixed(1)}`,
);
console.log('| group | requests | 2xx | 4xx | flagged | slowest ms |\n|---|---|---|---|---|---|');
for (const [g, s] of [...stats].sort())
  console.log(`| ${g} | ${s.requests} | ${s.ok} | ${s.refused} | ${s.flagged} | ${Math.round(s.worst)} |`);
if (flags.length) {
  console.log(`\n${flags.length} flagged; examples (at most 3 per route and problem):`);
  const seen = new Map();
  for (const f of flags) {
    const k = `${f.route} ${f.problems.join(',')}`;
    const n = seen.get(k) ?? 0;
    seen.set(k, n + 1);
    if (n < 3)
      console.log(
        `- ${f.route} [${f.probe}] -> ${f.status}: ${f.problems.join('; ')} :: ${f.answer.replace(/\s+/g, ' ').slice(0, 200)}`,
      );
  }
  const hidden = [...seen.values()].reduce((a, n) => a + Math.max(0, n - 3), 0);
  if (hidden) console.log(`(${hidden} more like these)`);
}
process.exit(flags.length ? 1 : 0);
