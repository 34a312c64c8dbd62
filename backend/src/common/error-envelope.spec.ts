import net from 'node:net';
import { ERRORS, type ErrorCode } from '@accredo/domain';
import { translate } from '@accredo/i18n';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAdminUser,
  createSubject,
  createTestApp,
  loginAs,
  type ApiResult,
  type TestApp,
} from '../testing/test-app.js';

/** One raw HTTP/1.1 exchange (for requests fetch refuses to send); resolves with the whole answer. */
function rawRequest(url: string, request: string): Promise<{ status: number; headers: string; body: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(request));
    let data = Buffer.alloc(0);
    const parse = () => {
      const text = data.toString('utf8');
      const end = text.indexOf('\r\n\r\n');
      if (end < 0) return null;
      const headers = text.slice(0, end);
      const length = Number(/content-length:\s*(\d+)/i.exec(headers)?.[1] ?? Number.NaN);
      const body = data.subarray(Buffer.byteLength(text.slice(0, end + 4))).toString('utf8');
      if (Number.isFinite(length) && Buffer.byteLength(body) < length) return null;
      return { status: Number(headers.split(' ')[1]), headers, body };
    };
    socket.on('data', (chunk: Buffer) => {
      data = Buffer.concat([data, chunk]);
      const answer = parse();
      if (answer) {
        socket.destroy();
        resolve(answer);
      }
    });
    socket.on('error', (err) => (parse() ? undefined : reject(err)));
    socket.on('close', () => {
      const answer = parse();
      if (answer) resolve(answer);
      else reject(new Error(`connection closed without an answer: ${data.toString('utf8')}`));
    });
  });
}

/** The one envelope, with a catalogue code whose status is the answer's status. */
function expectEnvelope(status: number, body: unknown, code: ErrorCode): void {
  expect(body).toEqual({ error: { code, message: expect.any(String), details: expect.any(Object) } });
  expect(Object.keys(body as object)).toEqual(['error']);
  expect(ERRORS[code].status).toBe(status);
  expect((body as { error: { message: string } }).error.message).not.toBe('');
}

const expectApi = (res: ApiResult, code: ErrorCode) => {
  expect(res.status).toBe(ERRORS[code].status);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expectEnvelope(res.status, res.body, code);
};

describe('every answer of the API has the one error envelope (issue 10 item 7)', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp();
    const subject = await createSubject(t);
    token = await loginAs(t, await createAdminUser(t, subject, { grant: [['action', 'get']] }));
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers a malformed URL (API or not) with 400 BAD_REQUEST, not Fastify’s own body', async () => {
    const res = await t.api('GET', '/api/admin/v1/action/%E0%A4%A');
    expectApi(res, 'BAD_REQUEST');
    expect(res.body.error.details).toEqual({ reason: 'FST_ERR_BAD_URL' });
    // answered before any hook, yet with the security headers of every answer (item 6)
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    expectApi(await t.api('GET', '/login/%E0%A4%A'), 'BAD_REQUEST');
    // in the caller's language like every other error
    const en = await t.api('GET', '/api/admin/v1/action/%E0%A4%A', { headers: { 'accept-language': 'en' } });
    expect(en.body.error.message).toBe('Invalid request');
  });

  it('speaks the best language of a real Accept-Language header, Czech when none is offered', async () => {
    const path = '/api/admin/v1/action/%E0%A4%A';
    const message = async (header: string) =>
      (await t.api('GET', path, { headers: { 'accept-language': header } })).body.error.message;
    expect(await message('de-AT,de;q=0.9,en;q=0.8')).toBe(translate('de', ERRORS.BAD_REQUEST.key));
    expect(await message('fr-FR,fr;q=0.9,en;q=0.5,sk;q=0.7')).toBe(translate('sk', ERRORS.BAD_REQUEST.key));
    expect(await message('en-GB')).toBe('Invalid request');
    expect(await message('fr, ja')).toBe(translate('cs', ERRORS.BAD_REQUEST.key));
    expect(await message(`${'x-'.repeat(3000)}, en`)).toBe(translate('cs', ERRORS.BAD_REQUEST.key));
  });

  it('names the refused fields in the top-level message of a validation error', async () => {
    const res = await t.api('POST', '/api/admin/v1/login', {
      body: { login: 'x'.repeat(300) },
      headers: { 'accept-language': 'en' },
    });
    expectApi(res, 'VALIDATION_ERROR');
    const fields = res.body.error.details.fields as { path: string; key: string }[];
    expect(fields.map((f) => f.path)).toEqual(['login', 'password']);
    expect(res.body.error.message).toBe(
      `${translate('en', ERRORS.VALIDATION_ERROR.key)}: ${fields.map((f) => `${f.path}: ${translate('en', f.key)}`).join('; ')}`,
    );
    expect(res.body.error.message).toMatch(/^The form contains errors: login: .+; password: .+$/);
  });

  it('answers a path parameter over 100 characters with 414 URI_TOO_LONG', async () => {
    expectApi(await t.api('GET', `/api/admin/v1/action/${'1'.repeat(150)}`, { token }), 'URI_TOO_LONG');
    expectApi(await t.api('GET', `/api/admin/v1/user/check/${'A'.repeat(101)}`), 'URI_TOO_LONG');
  });

  it('takes content-type application/json with no body as an empty body', async () => {
    const login = await t.api('POST', '/api/admin/v1/login', { headers: { 'content-type': 'application/json' } });
    expectApi(login, 'VALIDATION_ERROR');
    expect(login.body.error.details.fields.map((f: { path: string }) => f.path)).toEqual(['login', 'password']);

    const logout = await t.api('POST', '/api/admin/v1/logout', {
      token,
      headers: { 'content-type': 'application/json' },
    });
    expect(logout.status).toBe(200);
    expect(logout.body).toEqual({ data: true });
    // the session really ended
    expectApi(await t.api('GET', '/api/admin/v1/action/1', { token }), 'TOKEN_INVALID');
    const subject = await createSubject(t);
    token = await loginAs(t, await createAdminUser(t, subject, { grant: [['action', 'get']] }));
  });

  it('answers bad JSON, a body of another type and an oversize body in the envelope', async () => {
    expectApi(await t.api('POST', '/api/admin/v1/login', { raw: '{"login": ' }), 'BAD_REQUEST');
    expectApi(await t.api('POST', '/api/admin/v1/login', { raw: '{"__proto__": {"x": 1}}' }), 'BAD_REQUEST');
    expectApi(
      await t.api('POST', '/api/admin/v1/login', { raw: '<a/>', headers: { 'content-type': 'application/xml' } }),
      'UNSUPPORTED_MEDIA_TYPE',
    );
    // refused from its content-length, before the body is read
    const big = await rawRequest(
      t.url,
      'POST /api/admin/v1/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
        `Content-Length: ${64 * 1024 * 1024}\r\nConnection: close\r\n\r\n{}`,
    );
    expectEnvelope(big.status, JSON.parse(big.body), 'PAYLOAD_TOO_LARGE');
  });

  it('answers requests Node cannot parse (bad content-length, oversize headers) in the envelope', async () => {
    const badLength = await rawRequest(
      t.url,
      'POST /api/admin/v1/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: abc\r\n\r\n{}',
    );
    expect(badLength.headers).toMatch(/content-type: application\/json/i);
    expectEnvelope(badLength.status, JSON.parse(badLength.body), 'BAD_REQUEST');

    const twoLengths = await rawRequest(
      t.url,
      'POST /api/admin/v1/login HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}',
    );
    expectEnvelope(twoLengths.status, JSON.parse(twoLengths.body), 'BAD_REQUEST');

    const hugeHeaders = await rawRequest(
      t.url,
      `GET /api/admin/v1/actual HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(64 * 1024)}\r\n\r\n`,
    );
    expectEnvelope(hugeHeaders.status, JSON.parse(hugeHeaders.body), 'HEADERS_TOO_LARGE');
  });

  it('answers an unknown path 404 NOT_FOUND and a known path with another method 405 with Allow', async () => {
    expectApi(await t.api('GET', '/api/admin/v1/no-such-thing'), 'NOT_FOUND');
    expectApi(await t.api('POST', '/api/no-such-thing/v1'), 'NOT_FOUND');

    for (const method of ['GET', 'PATCH', 'DELETE', 'OPTIONS']) {
      const res = await t.api(method, '/api/admin/v1/login');
      expectApi(res, 'METHOD_NOT_ALLOWED');
      expect(res.headers.get('allow')).toBe('POST');
    }
    const wrong = await t.api('POST', '/api/admin/v1/action/1', { token });
    expectApi(wrong, 'METHOD_NOT_ALLOWED');
    expect(wrong.headers.get('allow')?.split(', ')).toEqual(expect.arrayContaining(['GET', 'HEAD', 'PUT']));

    // a 404 from a route that exists stays a 404 (the record is missing, not the method)
    expectApi(await t.api('GET', '/api/admin/v1/action/999999', { token }), 'NOT_FOUND');
  });

  it('answers HEAD like GET without a body', async () => {
    const head = await t.api('HEAD', '/api/admin/v1/action/1');
    expect(head.status).toBe(401);
    expect(head.body).toBe('');
    expect((await t.api('HEAD', '/api/admin/v1/no-such-thing')).status).toBe(404);
  });
});
