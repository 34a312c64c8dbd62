import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app.js';

/**
 * Issue 10 items 6 and 11 over real HTTP against a web build made in a temp folder: security
 * headers on the pages, the API and /api/docs; compressed hashed assets chosen by Accept-Encoding,
 * their cache headers, and no source maps.
 */

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A GET without the automatic decompression of fetch: the bytes and headers as sent. */
function get(t: TestApp, p: string, headers: Record<string, string> = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    http
      .get(t.url + p, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      })
      .on('error', reject);
  });
}

const INDEX =
  '<!doctype html><html><head><script type="module" src="/assets/index-Abc123.js"></script></head><body><div id="root"></div></body></html>';
const BUNDLE = `console.log(${JSON.stringify('accredo '.repeat(4000))});\n`;

let t: TestApp;
let dist: string;
beforeAll(async () => {
  dist = fs.mkdtempSync(path.join(os.tmpdir(), 'accredo-web-'));
  fs.mkdirSync(path.join(dist, 'assets'));
  fs.writeFileSync(path.join(dist, 'index.html'), INDEX);
  fs.writeFileSync(path.join(dist, 'print-frame.js'), 'window.print();\n');
  const bundle = path.join(dist, 'assets', 'index-Abc123.js');
  fs.writeFileSync(bundle, BUNDLE);
  fs.writeFileSync(`${bundle}.br`, zlib.brotliCompressSync(BUNDLE));
  fs.writeFileSync(`${bundle}.gz`, zlib.gzipSync(BUNDLE));
  fs.writeFileSync(`${bundle}.map`, '{"version":3,"sources":["secret.tsx"]}');
  fs.writeFileSync(path.join(dist, 'assets', 'index-Def456.css'), 'body{margin:0}');
  t = await createTestApp({ WEB_DIST: dist });
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(dist, { recursive: true, force: true });
});

/** The directives of a Content-Security-Policy header, by name. */
function directives(csp: string | string[] | undefined): Map<string, string[]> {
  return new Map(
    String(csp ?? '')
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...values]) => [name as string, values]),
  );
}

function expectPageHeaders(res: Raw) {
  const csp = directives(res.headers['content-security-policy']);
  expect(csp.get('script-src')).toEqual(["'self'"]); // no inline script, no eval, no other site
  expect(csp.get('default-src')).toEqual(["'self'"]);
  expect(csp.get('object-src')).toEqual(["'none'"]);
  expect(csp.get('base-uri')).toEqual(["'self'"]);
  expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
  expect(csp.get('connect-src')).toEqual(["'self'"]);
  expect(res.headers['x-frame-options']).toBe('DENY');
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
}

describe('security headers (issue 10 item 6)', () => {
  it('every page of the app: /, sign-in pages, the online form, any client route', async () => {
    for (const p of ['/', '/login', '/manage/login', '/app/online/some-channel-key', '/accreditation?x=1']) {
      const res = await get(t, p);
      expect(res.status, p).toBe(200);
      expect(res.headers['content-type'], p).toMatch(/^text\/html/);
      expect(res.body.toString(), p).toBe(INDEX);
      expectPageHeaders(res);
      expect(res.headers['cache-control'], p).toBe('no-cache');
    }
  });

  it('/api/docs passes its own policy: no inline script, its scripts are files of this origin', async () => {
    const res = await get(t, '/api/docs');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expectPageHeaders(res);
    const html = res.body.toString();
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, body] of scripts) {
      expect(attributes).toMatch(/\bsrc=/);
      expect(body?.trim()).toBe('');
    }
    expect(html).not.toMatch(/\son[a-z]+=/i); // no inline event handlers either
    for (const [, attributes] of scripts) {
      const src = /src=["']?([^"'\s>]+)/.exec(attributes ?? '')?.[1] ?? '';
      expect(src).not.toMatch(/^(https?:)?\/\//); // no other site
      const file = await get(t, new URL(src, `${t.url}/api/docs/`).pathname);
      expect(file.status, src).toBe(200);
      expect(file.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  it('API answers, errors included, are not sniffed, framed or run as a page', async () => {
    for (const res of [await get(t, '/api/health'), await get(t, '/api/admin/v1/actual'), await get(t, '/api/nope')]) {
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(directives(res.headers['content-security-policy']).get('default-src')).toEqual(["'none'"]);
    }
  });
});

describe('web assets (issue 10 item 11)', () => {
  const bundle = '/assets/index-Abc123.js';

  it('sends the brotli or gzip copy by Accept-Encoding, with Vary and a year of immutable caching', async () => {
    const br = await get(t, bundle, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.body.length).toBeLessThan(BUNDLE.length / 10);
    expect(zlib.brotliDecompressSync(br.body).toString()).toBe(BUNDLE);

    const gz = await get(t, bundle, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers.vary).toMatch(/accept-encoding/i);
    expect(zlib.gunzipSync(gz.body).toString()).toBe(BUNDLE);

    const plain = await get(t, bundle, { 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/accept-encoding/i);
    expect(plain.body.toString()).toBe(BUNDLE);
    expect(plain.headers['x-content-type-options']).toBe('nosniff');

    // a file without compressed copies is sent as it is, cached the same
    const css = await get(t, '/assets/index-Def456.css', { 'accept-encoding': 'br, gzip' });
    expect(css.status).toBe(200);
    expect(css.headers['content-encoding']).toBeUndefined();
    expect(css.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('files outside assets/ (index.html, the print trigger) revalidate on every use', async () => {
    for (const p of ['/', '/index.html', '/print-frame.js']) {
      const res = await get(t, p, { 'accept-encoding': 'br, gzip' });
      expect(res.status, p).toBe(200);
      expect(res.headers['cache-control'], p).toBe('no-cache');
    }
  });

  it('never serves a source map, a compressed copy by name or index.html for a missing asset', async () => {
    for (const p of [
      `${bundle}.map`,
      '/assets/INDEX-ABC123.JS.MAP',
      '/whatever.js.map',
      `${bundle}.br`,
      `${bundle}.gz`,
      '/assets/index-Gone99.js',
    ]) {
      const res = await get(t, p, { 'accept-encoding': 'br, gzip' });
      expect(res.status, p).toBe(404);
      expect(res.headers['content-type'], p).toMatch(/^application\/json/);
      expect(JSON.parse(res.body.toString()).error.code, p).toBe('NOT_FOUND');
      expect(res.body.toString(), p).not.toContain('secret.tsx');
    }
  });
});
