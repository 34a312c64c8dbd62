import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/test-app.js';
import { entryRules, type GateWorld, gateWorld } from './device-testing.js';

/**
 * POST api/device/v1/unpair without a code: the device gives up its own token (the gate screen's
 * Unpair button), so the token stops working on the server, not only in the browser that forgot it.
 */
describe('device self-unpair', () => {
  let t: TestApp;
  let w: GateWorld;
  let other: GateWorld;
  beforeAll(async () => {
    t = await createTestApp();
    w = await gateWorld(t);
    other = await gateWorld(t);
  });
  afterAll(() => t.close());

  it('revokes only its own token: config, scan and unpair answer 401 afterwards; the others keep working', async () => {
    const tpl = await w.template(entryRules(w.groups[0].id, 0));
    const gate = await w.device('self-a', tpl.id);
    const neighbour = await w.device('self-b', tpl.id);
    const foreign = await other.device('self-a');
    const eva = await w.person(1);
    // the scan path's token cache knows the token before it is revoked
    expect((await w.scan(gate.token, { code: eva.bc, nonce: 'self-1' })).body.data.allowed).toBe(true);

    const res = await t.api('POST', '/api/device/v1/unpair', { token: gate.token, body: {} });
    expect([res.status, res.body.data]).toEqual([200, { unpaired: true }]);

    const config = await t.api('GET', '/api/device/v1/config', { token: gate.token });
    expect([config.status, config.body.error.code]).toEqual([401, 'TOKEN_INVALID']);
    const scan = await w.scan(gate.token, { code: eva.bc, nonce: 'self-2' });
    expect([scan.status, scan.body.error.code]).toEqual([401, 'TOKEN_INVALID']);
    expect((await t.api('POST', '/api/device/v1/unpair', { token: gate.token, body: {} })).status).toBe(401);
    expect((await w.get(`device/${gate.id}`)).body.data).toMatchObject({ paired: false, deviceTemplateId: tpl.id });

    // the other device of the subject and the same uid in another subject are untouched
    expect((await w.scan(neighbour.token, { code: eva.bc, nonce: 'self-3' })).body.data.allowed).toBe(true);
    expect((await t.api('GET', '/api/device/v1/config', { token: foreign.token })).status).toBe(200);
    expect((await w.get(`device/${neighbour.id}`)).body.data.paired).toBe(true);

    // pairing the same uid again brings the device back with its template
    const again = await w.device('self-a');
    expect(again.id).toBe(gate.id);
    const back = await t.api('GET', '/api/device/v1/config', { token: again.token });
    expect(back.body.data).toMatchObject({ device: { id: gate.id }, template: { id: tpl.id } });
  });

  it('bad input is a 400 that revokes nothing; no token is a 401', async () => {
    const gate = await w.device('self-c');
    const empty = await t.api('POST', '/api/device/v1/unpair', { token: gate.token, body: { code: '  ' } });
    expect([empty.status, empty.body.error.details.fields]).toEqual([
      400,
      [{ path: 'code', key: 'basics.requireField' }],
    ]);
    const wrongType = await t.api('POST', '/api/device/v1/unpair', { token: gate.token, body: { code: 7 } });
    expect([wrongType.status, wrongType.body.error.details.fields]).toEqual([
      400,
      [{ path: 'code', key: 'basics.invalidValue' }],
    ]);
    const notObject = await t.api('POST', '/api/device/v1/unpair', { token: gate.token, body: [] });
    expect(notObject.status).toBe(400);
    const wrongCode = await t.api('POST', '/api/device/v1/unpair', { token: gate.token, body: { code: 'nope' } });
    expect([wrongCode.status, wrongCode.body.error.code]).toEqual([400, 'DEVICE_PAIR_CODE_INVALID']);
    expect((await t.api('GET', '/api/device/v1/config', { token: gate.token })).status).toBe(200);

    const anonymous = await t.api('POST', '/api/device/v1/unpair', { body: {} });
    expect([anonymous.status, anonymous.body.error.code]).toEqual([401, 'UNAUTHORIZED']);
    expect((await w.get(`device/${gate.id}`)).body.data.paired).toBe(true);
  });
});
