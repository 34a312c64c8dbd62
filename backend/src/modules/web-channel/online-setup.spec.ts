import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../app.factory.js';
import { createAdminUser, createSubject, createTestApp, loginAs, type TestApp } from '../../testing/test-app.js';
import { AccreditationEntity } from '../accreditation/accreditation.entity.js';
import { MailQueueEntity } from '../mail/mail-queue.entity.js';

const ml = (cs: string) => ({ cs, sk: '', en: '', de: '' });

/**
 * The online registration keeps the channel's set-up (channel, subject, action, fields, groups,
 * zones, mail template) in memory under a version every admin change bumps (issue 16): a change
 * made on any instance is seen by the very next registration, on every instance.
 */
describe('online registration: the set-up kept in memory follows every admin change at once', () => {
  let t: TestApp;
  let second: NestFastifyApplication;
  let secondUrl: string;
  let admin: string;
  let n = 0;

  const adminCall = async (method: string, path: string, body?: unknown) => {
    const res = await t.api(method, `/api/admin/v1/${path}`, { token: admin, body });
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.data;
  };
  /** Registers on one of the two instances. */
  const register = async (on: 'first' | 'second', channelKey: string, extra: Record<string, unknown> = {}) => {
    n++;
    const res = await fetch(`${on === 'first' ? t.url : secondUrl}/api/online/v1/accreditation/${channelKey}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ firstname: `V${n}`, lastname: 'Setup', email: `setup${n}@example.com`, ...extra }),
    });
    return {
      status: res.status,
      body: (await res.json()) as { data?: Record<string, unknown>; error?: { code: string } },
    };
  };

  beforeAll(async () => {
    t = await createTestApp();
    const subject = await createSubject(t, { timeZone: 'Europe/Prague' });
    admin = await loginAs(t, await createAdminUser(t, subject, { superuser: true }));
    second = await createApp(t.config);
    await second.listen(0, '127.0.0.1');
    secondUrl = `http://127.0.0.1:${(second.getHttpServer().address() as { port: number }).port}`;
  });
  afterAll(async () => {
    await second?.close();
    await t?.close();
  });

  it('sees a closed channel, a mandatory field, another group and a mail template at the next registration', async () => {
    const phone = await adminCall('POST', 'custom-field', { name: 'phone', label: ml('Telefon'), customFieldType: 1 });
    const action = await adminCall('POST', 'action', { name: ml('Fair'), customField: [{ id: phone.id }] });
    const zone = await adminCall('POST', 'zone', { name: 'Hall', actionId: action.id });
    const plain = await adminCall('POST', 'groups', { name: 'Plain', actionId: action.id });
    const hall = await adminCall('POST', 'groups', { name: 'Hall', actionId: action.id, zoneId: [zone.id] });
    const channel = await adminCall('POST', 'web-channel', { name: 'Form', actionId: action.id, groupsId: [plain.id] });
    const person = async (id: unknown) => t.ds.getRepository(AccreditationEntity).findOneByOrFail({ id: Number(id) });

    // both instances have the set-up in memory
    for (const on of ['first', 'second'] as const) {
      const res = await register(on, channel.channelKey);
      expect(res.status).toBe(201);
      expect(res.body.data?.confirmationMail).toBe(false);
    }

    // a user field made mandatory on one instance is required on the other at once
    await adminCall('PUT', `action/${action.id}`, {
      name: ml('Fair'),
      customField: [{ id: phone.id, isMandatory: true }],
    });
    const missing = await register('second', channel.channelKey);
    expect(missing.status).toBe(400);
    expect(JSON.stringify(missing.body)).toContain(`customField.${phone.id}`);
    const given = await register('second', channel.channelKey, { customField: [{ id: phone.id, value: '601' }] });
    expect(given.status).toBe(201);

    // the channel's group changed: the next person gets the new group and its zone
    await adminCall('PUT', `web-channel/${channel.id}`, { name: 'Form', actionId: action.id, groupsId: [hall.id] });
    const moved = await register('second', channel.channelKey, { customField: [{ id: phone.id, value: '601' }] });
    expect(moved.status).toBe(201);
    const links = await t.ds.query('SELECT groupId FROM accreditation_group WHERE accreditationId = ?', [
      moved.body.data?.id,
    ]);
    expect(links.map((l: { groupId: number }) => Number(l.groupId))).toEqual([hall.id]);
    expect((await person(moved.body.data?.id)).source).toBe('web');

    // a mail template named on the channel: the next registration queues its mail
    const template = await adminCall('POST', 'mail-template', { name: 'T', subjectFrom: 'Hi', html: '<p>Hi</p>' });
    await adminCall('PUT', `web-channel/${channel.id}`, {
      name: 'Form',
      actionId: action.id,
      groupsId: [hall.id],
      mailTemplateId: template.id,
    });
    const mailed = await register('second', channel.channelKey, { customField: [{ id: phone.id, value: '601' }] });
    expect(mailed.body.data?.confirmationMail).toBe(true);
    expect(await t.ds.getRepository(MailQueueEntity).countBy({ accreditationId: Number(mailed.body.data?.id) })).toBe(
      1,
    );

    // the channel closed on the first instance is closed on the second at once
    await adminCall('PUT', `web-channel/${channel.id}`, {
      name: 'Form',
      actionId: action.id,
      groupsId: [hall.id],
      active: false,
    });
    for (const on of ['second', 'first'] as const) {
      const closed = await register(on, channel.channelKey, { customField: [{ id: phone.id, value: '601' }] });
      expect([closed.status, closed.body.error?.code]).toEqual([403, 'WEB_CHANNEL_NOT_ACTIVE']);
    }
  });
});
