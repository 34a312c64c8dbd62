import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/test-app.js';
import { entryRules, type GateWorld, gateWorld } from './device-testing.js';

const ml = (cs: string, en = '') => ({ cs, sk: '', en, de: '' });
const dateRule = (customField: number) => ({
  customField,
  type: 'date',
  values: { system: 'today', check: 'gte', entrances: 0 },
});

/** GET api/device/v1/config names the user fields of the template's custom date rules (the gate names them in a refusal). */
describe('gate config: the user fields of custom date rules', () => {
  let t: TestApp;
  let w: GateWorld;
  beforeAll(async () => {
    t = await createTestApp();
    w = await gateWorld(t);
  });
  afterAll(() => t.close());

  it('lists each field once with its name and labels; none without date rules or a template', async () => {
    const from = (
      await w.post('custom-field', { name: 'from', label: ml('Platné od', 'Valid from'), customFieldType: 1 })
    ).body.data;
    const until = (await w.post('custom-field', { name: 'until', label: ml('Platné do'), customFieldType: 1 })).body
      .data;
    await w.post('custom-field', { name: 'other', label: ml('Jiné'), customFieldType: 1 });
    const tpl = await w.template({
      mode: 1,
      globalRule: null,
      rules: [
        { groupId: w.groups[0].id, entrances: 0, customRule: [dateRule(from.id), dateRule(until.id)] },
        { groupId: w.groups[1].id, entrances: 0, customRule: [dateRule(from.id)] },
      ],
    });
    const gate = await w.device('fields-1', tpl.id);
    const config = await t.api('GET', '/api/device/v1/config', { token: gate.token });
    expect(config.status).toBe(200);
    expect([...config.body.data.fields].sort((a: { id: number }, b: { id: number }) => a.id - b.id)).toEqual([
      { id: from.id, name: 'from', label: ml('Platné od', 'Valid from') },
      { id: until.id, name: 'until', label: ml('Platné do') },
    ]);

    const plain = await w.device('fields-2', (await w.template(entryRules(w.groups[0].id, 0))).id);
    expect((await t.api('GET', '/api/device/v1/config', { token: plain.token })).body.data.fields).toEqual([]);
    const idle = await w.device('fields-3');
    expect((await t.api('GET', '/api/device/v1/config', { token: idle.token })).body.data.fields).toEqual([]);
  });
});
