import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminUser, createSubject, createTestApp, loginAs, type TestApp } from '../../testing/test-app.js';
import { toSuggestion } from './geocode.service.js';

const ml = (cs: string) => ({ cs, sk: '', en: '', de: '' });

/** A local stand-in for a Nominatim search endpoint: answers by the query it gets. */
function fakeGeocoder() {
  const seen: URLSearchParams[] = [];
  const server = http.createServer((req, res) => {
    const params = new URL(req.url ?? '/', 'http://x').searchParams;
    seen.push(params);
    const q = params.get('q') ?? '';
    if (q.startsWith('slow')) {
      setTimeout(() => res.end('[]'), 2000);
      return;
    }
    if (q.startsWith('broken')) {
      res.statusCode = 500;
      res.end('upstream failure');
      return;
    }
    if (q.startsWith('garbage')) {
      res.setHeader('content-type', 'text/html');
      res.end('<html>not json</html>');
      return;
    }
    res.setHeader('content-type', 'application/json');
    res.end(
      JSON.stringify([
        {
          display_name: 'Václavské náměstí 1, Praha, 110 00, Česko',
          lat: '50.0843',
          lon: '14.4246',
          address: { road: 'Václavské náměstí', house_number: '1', city: 'Praha', postcode: '110 00' },
        },
        {
          display_name: 'Lhota 25, 252 41 Lhota, Česko',
          lat: '49.9',
          lon: '14.5',
          address: { village: 'Lhota', house_number: '25', postcode: '252 41' },
        },
        { nonsense: true },
      ]),
    );
  });
  return {
    seen,
    start: () =>
      new Promise<string>((resolve) =>
        server.listen(0, '127.0.0.1', () =>
          resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}/search`),
        ),
      ),
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('address suggestions (spec §5 Address, §9)', () => {
  const geocoder = fakeGeocoder();
  let t: TestApp;
  let off: TestApp;
  let admin: string;
  let channelKey: string;
  let closedKey: string;
  const adminGet = (path: string, token = admin, app = t) => app.api('GET', `/api/admin/v1/${path}`, { token });
  const error = (res: { status: number; body: { error?: { code: string } } }) => [res.status, res.body.error?.code];

  beforeAll(async () => {
    const url = await geocoder.start();
    t = await createTestApp({ GEOCODING_URL: url, GEOCODING_TIMEOUT_MS: '300' });
    admin = await loginAs(t, await createAdminUser(t, await createSubject(t), { superuser: true }));
    const action = (await t.api('POST', '/api/admin/v1/action', { token: admin, body: { name: ml('Fair') } })).body
      .data;
    const channel = async (active: boolean) => {
      const res = await t.api('POST', '/api/admin/v1/web-channel', {
        token: admin,
        body: { name: 'Form', actionId: action.id, active },
      });
      if (res.status !== 201) throw new Error(JSON.stringify(res.body));
      return res.body.data.channelKey as string;
    };
    channelKey = await channel(true);
    closedKey = await channel(false);
  });
  afterAll(async () => {
    await t.close();
    await off?.close();
    await geocoder.stop();
  });

  it('maps a Nominatim answer to street, city, zip and position', async () => {
    expect((await adminGet('geocode/status')).body.data).toEqual({ enabled: true });
    const res = await t.api('GET', `/api/admin/v1/geocode?q=${encodeURIComponent('Václavské nám 1')}`, {
      token: admin,
      headers: { 'accept-language': 'en-GB,en;q=0.9' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      {
        label: 'Václavské náměstí 1, Praha, 110 00, Česko',
        street: 'Václavské náměstí 1',
        city: 'Praha',
        zip: '110 00',
        gps: { lat: 50.0843, lng: 14.4246 },
      },
      {
        label: 'Lhota 25, 252 41 Lhota, Česko',
        street: 'Lhota 25',
        city: 'Lhota',
        zip: '252 41',
        gps: { lat: 49.9, lng: 14.5 },
      },
    ]);
    const sent = geocoder.seen.at(-1)!;
    expect(Object.fromEntries(sent)).toEqual({
      q: 'Václavské nám 1',
      format: 'jsonv2',
      addressdetails: '1',
      limit: '5',
      'accept-language': 'en',
    });
    expect(toSuggestion({ address: {} })).toBeNull();
  });

  it('answers the geocoder’s failures with clear codes, never a 500', async () => {
    expect(error(await adminGet('geocode?q=slow street'))).toEqual([504, 'GEOCODING_TIMEOUT']);
    expect(error(await adminGet('geocode?q=broken street'))).toEqual([502, 'GEOCODING_FAILED']);
    expect(error(await adminGet('geocode?q=garbage street'))).toEqual([502, 'GEOCODING_FAILED']);
    const short = await adminGet('geocode?q=ab');
    expect(error(short)).toEqual([400, 'VALIDATION_ERROR']);
    expect(short.body.error.details.fields).toEqual([{ path: 'q', key: 'address.queryTooShort' }]);
    expect((await adminGet('geocode')).body.error.details.fields).toEqual([{ path: 'q', key: 'basics.requireField' }]);
  });

  it('needs a session and one of the rights to register or edit accreditations', async () => {
    expect(error(await t.api('GET', '/api/admin/v1/geocode?q=Praha'))).toEqual([401, 'UNAUTHORIZED']);
    const subject = await createSubject(t);
    const nobody = await loginAs(t, await createAdminUser(t, subject));
    expect(error(await adminGet('geocode?q=Praha', nobody))).toEqual([403, 'FORBIDDEN']);
    expect((await adminGet('geocode/status', nobody)).body.data).toEqual({ enabled: true });
    const editor = await loginAs(t, await createAdminUser(t, subject, { grant: [['user', 'updateUser']] }));
    expect((await adminGet('geocode?q=Praha', editor)).status).toBe(200);
    const creator = await loginAs(t, await createAdminUser(t, subject, { grant: [['user', 'createUser']] }));
    expect((await adminGet('geocode?q=Praha', creator)).status).toBe(200);
  });

  it('serves the public form of an open channel only, rate-limited', async () => {
    expect((await t.api('GET', '/api/online/v1/geocode/status')).body.data).toEqual({ enabled: true });
    const ok = await t.api('GET', `/api/online/v1/geocode/${channelKey}?q=Praha 1`);
    expect(ok.status).toBe(200);
    expect(ok.body.data[0].city).toBe('Praha');
    expect(error(await t.api('GET', `/api/online/v1/geocode/${closedKey}?q=Praha 1`))).toEqual([
      403,
      'WEB_CHANNEL_NOT_ACTIVE',
    ]);
    expect(error(await t.api('GET', '/api/online/v1/geocode/no-such-channel-key-here?q=Praha 1'))[1]).toBe(
      'WEB_CHANNEL_DOESNT_EXIST',
    );
    // a burst sent at once cannot pass the limit (30 a minute per address): counted before searching
    const burst = await Promise.all(
      Array.from({ length: 40 }, (_, i) => t.api('GET', `/api/online/v1/geocode/${channelKey}?q=Praha ${i}`)),
    );
    expect(burst.filter((r) => r.status === 200)).toHaveLength(29);
    const last = burst.find((r) => r.status !== 200) ?? ok;
    expect(error(last)).toEqual([429, 'TOO_MANY_REQUESTS']);
    expect(Number(last.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('is off without GEOCODING_URL: manual entry only', async () => {
    off = await createTestApp();
    const token = await loginAs(off, await createAdminUser(off, await createSubject(off), { superuser: true }));
    expect((await adminGet('geocode/status', token, off)).body.data).toEqual({ enabled: false });
    expect(error(await adminGet('geocode?q=Praha', token, off))).toEqual([404, 'GEOCODING_DISABLED']);
    expect((await off.api('GET', '/api/online/v1/geocode/status')).body.data).toEqual({ enabled: false });
  });
});
