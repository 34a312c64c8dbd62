import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from './app-error.js';
import { ErrorFilter } from './error.filter.js';
import { attachRawFront, rawFailure, rawSend } from './raw-front.js';
import { RAW_SECURITY_HEADER_LIST } from './web-app.js';

/** The raw front of the hottest routes (issue 16): what it takes, what it leaves to Fastify, its errors. */
describe('raw front', () => {
  let app: FastifyInstance | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  async function start(fail?: unknown) {
    const filter = new ErrorFilter(null);
    app = Fastify();
    app.get('/api/x', async () => ({ via: 'fastify' }));
    attachRawFront(app, [
      null,
      (req, res) => {
        if (req.url !== '/api/x' || req.headers['x-raw'] !== '1') return false;
        if (fail) rawFailure(req, res, fail, filter);
        else rawSend(res, 200, JSON.stringify({ via: 'raw' }));
        return true;
      },
    ]);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as { port: number };
    return (headers: Record<string, string> = {}) => fetch(`http://127.0.0.1:${port}/api/x`, { headers });
  }

  it('answers what a taker takes, with the security headers, and leaves the rest to Fastify', async () => {
    const get = await start();
    const raw = await get({ 'x-raw': '1' });
    expect([raw.status, await raw.json()]).toEqual([200, { via: 'raw' }]);
    expect(raw.headers.get('content-type')).toBe('application/json; charset=utf-8');
    for (let i = 0; i < RAW_SECURITY_HEADER_LIST.length; i += 2)
      expect(raw.headers.get(RAW_SECURITY_HEADER_LIST[i])).toBe(RAW_SECURITY_HEADER_LIST[i + 1]);
    const other = await get();
    expect(await other.json()).toEqual({ via: 'fastify' });
  });

  it("answers an error in ErrorFilter's envelope and language, with its Retry-After", async () => {
    const get = await start(new AppError('TOO_MANY_REQUESTS', { retryAfter: 7 }));
    const de = await get({ 'x-raw': '1', 'accept-language': 'de' });
    const en = await get({ 'x-raw': '1', 'accept-language': 'en' });
    expect(de.status).toBe(429);
    expect(de.headers.get('retry-after')).toBe('7');
    type Envelope = { error: { code: string; message: string; details: Record<string, unknown> } };
    const [deBody, enBody] = [(await de.json()) as Envelope, (await en.json()) as Envelope];
    expect(deBody.error).toMatchObject({ code: 'TOO_MANY_REQUESTS', details: { retryAfter: 7 } });
    expect(deBody.error.message).toBeTruthy();
    expect(deBody.error.message).not.toBe(enBody.error.message);
  });

  it('answers the unexpected as a 500 with a request id, never its message', async () => {
    const get = await start(new Error('secret detail'));
    const res = await get({ 'x-raw': '1' });
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(text).not.toContain('secret detail');
    expect(JSON.parse(text).error).toMatchObject({
      code: 'INTERNAL_ERROR',
      details: { requestId: expect.any(String) },
    });
  });
});
