import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants.js';
import { RequestMethod } from '@nestjs/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTROLLERS } from '../app.module.js';
import { createAdminUser, createSubject, createTestApp, loginAs, type TestApp } from '../testing/test-app.js';
import { ACCESS_KEY, type Access } from './access.js';

interface Route {
  method: string;
  path: string;
  access: Access | undefined;
  name: string;
}

/** Every route of every controller, with its access marking. */
function routes(): Route[] {
  return CONTROLLERS.flatMap((controller) => {
    const base = String(Reflect.getMetadata(PATH_METADATA, controller) ?? '');
    const classAccess = Reflect.getMetadata(ACCESS_KEY, controller) as Access | undefined;
    return Object.getOwnPropertyNames(controller.prototype)
      .filter((name) => name !== 'constructor')
      .map((name) => (controller.prototype as unknown as Record<string, object>)[name])
      .filter((fn) => Reflect.getMetadata(PATH_METADATA, fn) !== undefined)
      .map((fn) => ({
        method: RequestMethod[Reflect.getMetadata(METHOD_METADATA, fn) as number],
        path: `/${base}/${String(Reflect.getMetadata(PATH_METADATA, fn))}`.replace(/\/+/g, '/').replace(/\/$/, ''),
        access: (Reflect.getMetadata(ACCESS_KEY, fn) as Access | undefined) ?? classAccess,
        name: `${controller.name}.${(fn as { name: string }).name}`,
      }));
  });
}

const concrete = (path: string) => path.replace(/:\w+/g, '1');

describe('every route', () => {
  let t: TestApp;
  let noRights: string;
  beforeAll(async () => {
    t = await createTestApp();
    noRights = await loginAs(t, await createAdminUser(t, await createSubject(t)));
  });
  afterAll(() => t.close());

  it('declares its access: public, an admin right or session, or a manage session', () => {
    const all = routes();
    expect(all.length).toBeGreaterThan(20);
    expect(all.filter((r) => !r.access).map((r) => r.name)).toEqual([]);
  });

  it('answers 401 without a session on every non-public route', async () => {
    for (const route of routes().filter((r) => r.access?.kind !== 'public')) {
      const res = await t.api(route.method, concrete(route.path), { body: route.method === 'GET' ? undefined : {} });
      expect([route.name, res.status, res.body?.error?.code]).toEqual([route.name, 401, 'UNAUTHORIZED']);
    }
  });

  it('answers 403 without the right on every route that needs one', async () => {
    const guarded = routes().filter(
      (r) => r.access?.kind === 'admin' && (r.access.right || r.access.anyRight || r.access.manageuser),
    );
    expect(guarded.length).toBeGreaterThan(5);
    for (const route of guarded) {
      const res = await t.api(route.method, concrete(route.path), {
        token: noRights,
        body: route.method === 'GET' ? undefined : {},
      });
      expect([route.name, res.status, res.body?.error?.code]).toEqual([route.name, 403, 'FORBIDDEN']);
    }
  });

  it('does not accept an admin token for the manage module, nor the reverse', async () => {
    const manage = await t.api('GET', '/api/manage/v1/subject', { manageToken: noRights });
    expect(manage.status).toBe(401);
    expect(manage.body.error.code).toBe('TOKEN_INVALID');
  });

  it('answers unknown API paths with a JSON 404 and serves OpenAPI', async () => {
    const res = await t.api('GET', '/api/admin/v1/no-such-thing');
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
    const docs = await t.api('GET', '/api/docs-json');
    expect(docs.status).toBe(200);
    expect(Object.keys(docs.body.paths)).toContain('/api/admin/v1/login');
  });
});
