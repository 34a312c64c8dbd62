import { AccreditationHistoryService } from './accreditation-history.service.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pngDataUrl } from '../../testing/images.js';
import { createAdminUser, createSubject, createTestApp, loginAs, type TestApp } from '../../testing/test-app.js';
import { AccreditationEntity } from './accreditation.entity.js';
import { PrintLogEntity } from './print-log.entity.js';

const ml = (cs: string) => ({ cs, sk: '', en: '', de: '' });

describe('badge printing (spec §7 user/print, §2 options: print, §5)', () => {
  let t: TestApp;
  let subjectId: number;
  let adminId: number;
  let admin: string;
  let reader: string;
  let stranger: string;
  let action: { id: number };
  let company: { id: number };
  let badge: { id: number };
  let press: { id: number };
  let staff: { id: number };
  let hall: { id: number };
  const people: Record<string, { id: number; bc: string }> = {};

  const post = (path: string, body: unknown, token = admin) =>
    t.api('POST', `/api/admin/v1/${path}`, { token, body, headers: { 'accept-language': 'en' } });
  const put = (path: string, body: unknown, token = admin) => t.api('PUT', `/api/admin/v1/${path}`, { token, body });
  const printCount = async (id: number) =>
    (await t.ds.getRepository(AccreditationEntity).findOneByOrFail({ id })).printCount;

  beforeAll(async () => {
    t = await createTestApp();
    const subject = await createSubject(t, { key: `print-${Date.now().toString(36)}` });
    subjectId = subject.id;
    const superuser = await createAdminUser(t, subject, { superuser: true, name: 'Printer Admin' });
    adminId = superuser.id;
    admin = await loginAs(t, superuser);
    reader = await loginAs(t, await createAdminUser(t, subject, { grant: [['user', 'getUser']] }));
    stranger = await loginAs(t, await createAdminUser(t, await createSubject(t), { superuser: true }));

    company = (await post('custom-field', { name: 'company', label: ml('Firma'), customFieldType: 1 })).body.data;
    action = (
      await post('action', {
        name: ml('Veletrh'),
        dateFrom: '2027-05-10T08:00',
        dateTo: '2027-05-11T18:00',
        multiDay: true,
        days: [
          { id: '2027-05-10', name: ml('Pondělí'), onAccreditation: 'PO' },
          { id: '2027-05-11', name: ml('Úterý'), onAccreditation: 'ÚT' },
        ],
        customField: [{ id: company.id }],
      })
    ).body.data;
    hall = (await post('zone', { name: 'Hall', onAccreditation: 'H1', actionId: action.id })).body.data;
    badge = (
      await post('template', {
        name: 'Badge',
        pageSize: 'A6',
        htmlData:
          '<h1>{{firstname}} {{lastname}}</h1><p>{{group}} {{zones[0]}} {{custom_field[COMPANY]}} {{#each days}}{{onAccreditation}}{{/each}} {{actionName}}</p>{{bc}}{{user_image}}<a href="{{smartLink}}">preview</a>'.replace(
            'COMPANY',
            String(company.id),
          ),
      })
    ).body.data;
    press = (
      await post('groups', { name: 'Press', displayName: ml('Tisk'), actionId: action.id, adminTemplateId: badge.id })
    ).body.data;
    staff = (await post('groups', { name: 'Staff', actionId: action.id })).body.data;

    const register = async (key: string, firstname: string, extra: Record<string, unknown>) => {
      const res = await post('user', {
        actionId: action.id,
        firstname,
        lastname: 'Tester',
        email: `${key}@example.com`,
        ...extra,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      people[key] = res.body.data;
    };
    await register('anna', 'Anna', {
      groupIds: [press.id],
      zones: [hall.id],
      days: ['2027-05-11'],
      customField: [{ id: company.id, value: 'ACME <b>' }],
      imageData: pngDataUrl(),
    });
    await register('bob', '<script>alert(1)</script>', { groupIds: [press.id] });
    await register('cyril', 'Cyril', { groupIds: [staff.id] });
    await register('dana', 'Dana', {});
  });
  afterAll(() => t.close());

  it('needs a session, the right and rows of the own subject', async () => {
    const body = { actionId: action.id, userId: [people.anna.id] };
    expect((await t.api('POST', '/api/admin/v1/user/print', { body })).status).toBe(401);
    const denied = await post('user/print', body, reader);
    expect([denied.status, denied.body.error.code]).toEqual([403, 'FORBIDDEN']);
    const foreignAction = await post('user/print', body, stranger);
    expect([foreignAction.status, foreignAction.body.error.code]).toEqual([404, 'ACTION_DOESNT_EXIST']);
    const own = (await post('action', { name: ml('Jiná') }, stranger)).body.data;
    const foreignRows = await post('user/print', { actionId: own.id, userId: [people.anna.id] }, stranger);
    expect([foreignRows.status, foreignRows.body.error.code]).toEqual([404, 'NOT_FOUND']);
    expect(await printCount(people.anna.id)).toBe(0);
  });

  it('refuses an empty selection (spec §5) and bad bodies (type pdf: pdf/badge-pdf.spec.ts)', async () => {
    const empty = await post('user/print', { actionId: action.id, userId: [] });
    expect([empty.status, empty.body.error.code]).toEqual([400, 'VALIDATION_ERROR']);
    expect(empty.body.error.details.fields).toEqual([{ path: 'userId', key: 'accreditation.chooseUsers' }]);
    for (const body of [
      { actionId: action.id, userId: [people.anna.id], type: 'docx' },
      { userId: [people.anna.id] },
      { actionId: action.id, userId: ['x'] },
      { actionId: action.id, all: 'yes' },
    ]) {
      const res = await post('user/print', body);
      expect([res.status, res.body.error.code], JSON.stringify(body)).toEqual([400, 'VALIDATION_ERROR']);
    }
    const nothing = await post('user/print', { actionId: action.id, all: true, filterData: { text: 'nobody-here' } });
    expect([nothing.status, nothing.body.error.code]).toEqual([400, 'NOTHING_TO_PRINT']);
    expect(await printCount(people.anna.id)).toBe(0);
  });

  it('prints a selection: one badge per page with every placeholder, the rest listed with the reason', async () => {
    const res = await post('user/print', {
      actionId: action.id,
      userId: [people.anna.id, people.cyril.id, people.dana.id],
      all: false,
    });
    expect(res.status).toBe(200);
    expect(res.body.fileName).toMatch(new RegExp(`^badges-${action.id}-\\d{4}-\\d{2}-\\d{2}\\.html$`));
    expect(res.body.error).toEqual([
      { user: people.cyril.id, error: 'PRINT_NO_TEMPLATE', name: 'Cyril Tester' },
      { user: people.dana.id, error: 'PRINT_NO_GROUP', name: 'Dana Tester' },
    ]);
    const html: string = res.body.data;
    expect(html.match(/class="accredo-page accredo-page-A6"/g)).toHaveLength(1);
    expect(html).toContain('@page { size: 105mm 148mm; margin: 0; }');
    expect(html).toContain('<h1>Anna Tester</h1>');
    expect(html).toContain('<p>Tisk H1 ACME &lt;b&gt; ÚT Veletrh</p>');
    expect(html).toContain(`<svg class="bc bc-qrcode" width="30mm" role="img" aria-label="${people.anna.bc}"`);
    expect(html).toMatch(/<img class="user-image" src="\/api\/file\/[\w.-]+" alt="">/);
    expect(html).toContain(`href="http://accredo.test/preview/print-`);
    expect(html).toContain(`/cid/${people.anna.bc}"`);

    expect(await printCount(people.anna.id)).toBe(1);
    expect(await printCount(people.cyril.id)).toBe(0);
    const logs = await t.ds.getRepository(PrintLogEntity).find({ where: { accreditationId: people.anna.id } });
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ subjectId, accreditationId: people.anna.id, adminUserId: adminId });
    expect(logs[0].createdAt).toBeInstanceOf(Date);
  });

  it('prints everyone of a filter with all=true, escaping what people typed; the printed filter finds them', async () => {
    const res = await post('user/print', {
      actionId: action.id,
      all: true,
      userId: [],
      filterData: { groupId: press.id },
    });
    expect(res.status).toBe(200);
    expect(res.body.error).toEqual([]);
    const html: string = res.body.data;
    expect(html.match(/class="accredo-page /g)).toHaveLength(2);
    expect(html).not.toContain('<script>');
    expect(html).toContain('<h1>&lt;script&gt;alert(1)&lt;/script&gt; Tester</h1>');
    expect(await printCount(people.anna.id)).toBe(2);
    expect(await printCount(people.bob.id)).toBe(1);

    const printed = await post('user/filter', {
      actionId: action.id,
      page: 1,
      pageSize: 10,
      filterData: { printed: 1 },
    });
    expect(printed.body.data.map((r: { id: number }) => r.id).sort()).toEqual([people.anna.id, people.bob.id].sort());
    const notPrinted = await post('user/filter', {
      actionId: action.id,
      page: 1,
      pageSize: 10,
      filterData: { printed: -1 },
    });
    expect(notPrinted.body.data.map((r: { id: number }) => r.id).sort()).toEqual(
      [people.cyril.id, people.dana.id].sort(),
    );
  });

  it('lists nobody printable without a page: data is null and nothing is counted', async () => {
    const res = await post('user/print', { actionId: action.id, userId: [people.dana.id] });
    expect(res.status).toBe(200);
    expect(res.body.data).toBeNull();
    expect(res.body.error).toEqual([{ user: people.dana.id, error: 'PRINT_NO_GROUP', name: 'Dana Tester' }]);
    expect(await printCount(people.dana.id)).toBe(0);
  });

  it('reports a broken template per person and prints each group on its own page size', async () => {
    const broken = (await post('template', { name: 'Broken', pageSize: 'A6', htmlData: '{{#each days}}' })).body.data;
    const wide = (await post('template', { name: 'Wide', pageSize: 'A5-L', htmlData: '<b>{{lastname}}</b>' })).body
      .data;
    await put(`groups/${staff.id}`, { name: 'Staff', actionId: action.id, adminTemplateId: broken.id });
    const vip = (await post('groups', { name: 'VIP', actionId: action.id, adminTemplateId: wide.id })).body.data;
    await post('user/assign-groups', { actionId: action.id, userId: [people.dana.id], groupsId: [vip.id] });

    const res = await post('user/print', {
      actionId: action.id,
      userId: [people.anna.id, people.cyril.id, people.dana.id],
    });
    expect(res.body.error).toEqual([{ user: people.cyril.id, error: 'TEMPLATE_SYNTAX_ERROR', name: 'Cyril Tester' }]);
    const html: string = res.body.data;
    expect(html).toContain('@page accredo-A6 { size: 105mm 148mm; margin: 0; }');
    expect(html).toContain('@page accredo-A5-L { size: 210mm 148mm; margin: 0; }');
    expect(html).toContain('<div class="accredo-page accredo-page-A5-L"><b>Tester</b></div>');
    expect(await printCount(people.dana.id)).toBe(1);
    expect(await printCount(people.cyril.id)).toBe(0);
  });

  it('gives the latest prints of a person, newest first, with the admin user', async () => {
    // Read the way the list reads it: the row history of a page.
    const prints = async (id: number) =>
      (await t.app.get(AccreditationHistoryService).forAccreditations([id])).get(id)!.print;
    const latest = await prints(people.anna.id);
    expect(latest.length).toBeGreaterThanOrEqual(2);
    expect(latest[0].adminUser).toBe('Printer Admin');
    expect(Date.parse(latest[0].date)).toBeGreaterThanOrEqual(Date.parse(latest[1].date));
    expect(await prints(people.cyril.id)).toEqual([]);
  });
});
