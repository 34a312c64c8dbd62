import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildRights, type RightPair, type Rights } from '@accredo/domain';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { createApp } from '../app.factory.js';
import { hashPassword, randomCode } from '../common/crypto.js';
import { type AppConfig, loadConfig } from '../config/config.js';
import { AdminUserEntity } from '../modules/admin-user/admin-user.entity.js';
import { MailQueueEntity } from '../modules/mail/mail-queue.entity.js';
import { MailService } from '../modules/mail/mail.service.js';
import { SubjectEntity } from '../modules/subject/subject.entity.js';

/**
 * A real server for API tests: the whole app over real HTTP, on a fresh database of the kind the
 * suite runs on (TEST_DB=sqlite: a new file; TEST_DB=mariadb: a new database on the local server).
 */
export const TEST_DB = (process.env.TEST_DB ?? 'sqlite') as 'sqlite' | 'mariadb';
export const MARIADB_URL = process.env.TEST_MARIADB_URL ?? 'mysql://root@127.0.0.1:3306';
export const TEST_PASSWORD = 'correct-horse-battery';

export interface ApiResult<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface TestApp {
  app: NestFastifyApplication;
  url: string;
  config: AppConfig;
  ds: DataSource;
  dataDir: string;
  api<T = any>(
    method: string,
    path: string,
    options?: { body?: unknown; token?: string; manageToken?: string; raw?: string; headers?: Record<string, string> },
  ): Promise<ApiResult<T>>;
  /** Sends every waiting mail now and returns the queue rows. */
  mails(): Promise<MailQueueEntity[]>;
  close(): Promise<void>;
}

export async function createTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'accredo-test-'));
  const dbName = `accredo_t_${Date.now().toString(36)}_${randomCode(6).toLowerCase()}`;
  const config = loadConfig({
    DATA_DIR: dataDir,
    PASSWORD_HASH_COST: '10',
    LOG_LEVEL: 'error',
    WEB_DIST: path.join(dataDir, 'no-web'),
    PUBLIC_URL: 'http://accredo.test',
    OPERATOR_EMAIL: 'operator@test.local',
    OPERATOR_PASSWORD: TEST_PASSWORD,
    ...(TEST_DB === 'mariadb' ? { DATABASE_URL: `${MARIADB_URL}/${dbName}` } : {}),
    ...env,
  });
  const app = await createApp(config);
  await app.listen(0, '127.0.0.1');
  const address = app.getHttpServer().address() as { port: number };
  const url = `http://127.0.0.1:${address.port}`;
  const ds = app.get<DataSource>(getDataSourceToken());
  const mail = app.get(MailService);

  return {
    app,
    url,
    config,
    ds,
    dataDir,
    async api(method, p, options = {}) {
      const headers: Record<string, string> = { ...options.headers };
      if (options.body !== undefined || options.raw !== undefined) headers['content-type'] ??= 'application/json';
      if (options.token) headers.authorization = options.token;
      if (options.manageToken) headers['authorization-manage'] = options.manageToken;
      const res = await fetch(url + p, {
        method,
        headers,
        body: options.raw ?? (options.body !== undefined ? JSON.stringify(options.body) : undefined),
      });
      const text = await res.text();
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        /* not JSON */
      }
      return { status: res.status, body: body as never, headers: res.headers };
    },
    async mails() {
      await mail.flush();
      return ds.getRepository(MailQueueEntity).find({ order: { id: 'ASC' } });
    },
    async close() {
      await app.close();
      if (TEST_DB === 'mariadb') {
        const { DataSource } = await import('typeorm');
        const admin = await new DataSource({ type: 'mariadb', url: `${MARIADB_URL}/` }).initialize();
        await admin.query(`DROP DATABASE IF EXISTS \`${dbName}\``);
        await admin.destroy();
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

// ---- factories: real rows ----

let seq = 0;
const unique = () => `${Date.now().toString(36)}${(seq++).toString(36)}`;

export async function createSubject(t: TestApp, data: Partial<SubjectEntity> = {}): Promise<SubjectEntity> {
  const u = unique();
  const repo = t.ds.getRepository(SubjectEntity);
  return repo.save(
    repo.create({
      name: `Subject ${u}`,
      key: `s-${u}`,
      pathToFiles: `p-${u}`,
      deviceKey: randomCode(16),
      multiLanguage: false,
      timeZone: 'Europe/Prague',
      extensions: [],
      createdAt: new Date(),
      ...data,
    }),
  );
}

export interface UserOptions extends Partial<AdminUserEntity> {
  grant?: RightPair[];
}

export async function createAdminUser(
  t: TestApp,
  subject: SubjectEntity,
  options: UserOptions = {},
): Promise<AdminUserEntity> {
  const { grant = [], ...data } = options;
  const rights: Rights = buildRights(([page, action]) => grant.some(([p, a]) => p === page && a === action));
  const repo = t.ds.getRepository(AdminUserEntity);
  const now = new Date();
  return repo.save(
    repo.create({
      subjectId: subject.id,
      login: `user-${unique()}@example.com`,
      name: 'Test User',
      passwordHash: await hashPassword(TEST_PASSWORD, 10),
      active: true,
      verified: true,
      superuser: false,
      manageuser: false,
      language: 'en',
      rights,
      createdAt: now,
      updatedAt: now,
      ...data,
    }),
  );
}

export async function loginAs(t: TestApp, user: AdminUserEntity): Promise<string> {
  const res = await t.api('POST', '/api/admin/v1/login', { body: { login: user.login, password: TEST_PASSWORD } });
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.token;
}

export async function operatorToken(t: TestApp): Promise<string> {
  const res = await t.api('POST', '/api/manage/v1/login', {
    body: { login: 'operator@test.local', password: TEST_PASSWORD },
  });
  if (res.status !== 200) throw new Error(`operator login failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.token;
}

/** The link a mail carries, e.g. the raw token of /verify/{link}. */
export function linkFrom(mail: MailQueueEntity, kind: 'verify' | 'forgot-password'): string {
  const m = mail.bodyText.match(new RegExp(`/${kind}/([A-Za-z0-9_-]+)`));
  if (!m) throw new Error(`no ${kind} link in mail: ${mail.bodyText}`);
  return m[1];
}
