import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HttpRelay, RelayError } from './relay.js';

interface Hit {
  method: string;
  url: string;
  authorization?: string;
  body: string;
}

describe('HTTP relay against a local relay box', () => {
  let server: http.Server;
  let base: string;
  const hits: Hit[] = [];
  let respond: (response: http.ServerResponse) => void;

  beforeAll(async () => {
    server = http.createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => {
        body += chunk;
      });
      request.on('end', () => {
        hits.push({ method: request.method!, url: request.url!, authorization: request.headers.authorization, body });
        respond(response);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => {
    hits.length = 0;
    respond = (response) => response.end('{"ison":true}');
  });

  it('calls the configured URL with its method, body and basic authentication from the URL', async () => {
    const relay = new HttpRelay({
      url: `http://admin:s%40cret@127.0.0.1:${new URL(base).port}/relay/0?turn=on&timer=1`,
      method: 'POST',
      body: 'pulse=1',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    await relay.open();
    expect(hits).toEqual([
      {
        method: 'POST',
        url: '/relay/0?turn=on&timer=1',
        authorization: `Basic ${Buffer.from('admin:s@cret').toString('base64')}`,
        body: 'pulse=1',
      },
    ]);
  });

  it('calls the off URL after the pulse for boxes that do not pulse by themselves', async () => {
    const relay = new HttpRelay({ url: `${base}/30000/01`, closeUrl: `${base}/30000/00`, pulseMs: 10 });
    expect(await relay.test()).toEqual({ ok: true });
    expect(hits.map((h) => [h.method, h.url])).toEqual([
      ['GET', '/30000/01'],
      ['GET', '/30000/00'],
    ]);
  });

  it('reports a refusal with its status, once, without retrying', async () => {
    respond = (response) => {
      response.statusCode = 401;
      response.end('unauthorised');
    };
    const relay = new HttpRelay({ url: `${base}/relay` });
    await expect(relay.open()).rejects.toMatchObject({
      code: 'RELAY_REFUSED',
      message: expect.stringContaining('401'),
    });
    expect(await relay.test()).toEqual({ ok: false, message: expect.stringContaining('HTTP 401') });
    expect(hits).toHaveLength(2);
  });

  it('gives up after the timeout when the box does not answer', async () => {
    const pending: http.ServerResponse[] = [];
    respond = (response) => pending.push(response);
    const relay = new HttpRelay({ url: `${base}/slow`, timeoutMs: 200 });
    const error = await relay.open().catch((e) => e);
    expect(error).toBeInstanceOf(RelayError);
    expect(error.code).toBe('RELAY_TIMEOUT');
    expect(hits).toHaveLength(1);
    for (const response of pending) response.end();
  });

  it('reports an unreachable box', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const result = await new HttpRelay({ url: `http://127.0.0.1:${port}/` }).test();
    expect(result.ok).toBe(false);
    expect(result.message).toMatch(/ECONNREFUSED/);
  });

  it('refuses a URL that is not one', () => {
    expect(() => new HttpRelay({ url: 'relay box' })).toThrow(RelayError);
  });
});
