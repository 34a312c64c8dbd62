import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pngDataUrl } from '../../testing/images.js';
import { createAdminUser, createSubject, createTestApp, loginAs, type TestApp } from '../../testing/test-app.js';

const ml = (cs: string) => ({ cs, sk: '', en: '', de: '' });

/** Issue 3 over the API: a complete multi-day event set up, scoped to the subject, on both databases. */
describe('event set-up', () => {
  let t: TestApp;
  let admin: string;
  let stranger: string;
  let readOnly: string;
  beforeAll(async () => {
    t = await createTestApp();
    const subject = await createSubject(t);
    admin = await loginAs(t, await createAdminUser(t, subject, { superuser: true }));
    readOnly = await loginAs(
      t,
      await createAdminUser(t, subject, {
        grant: [
          ['action', 'get'],
          ['groups', 'get'],
          ['zone', 'get'],
          ['customField', 'get'],
          ['image', 'get'],
        ],
      }),
    );
    stranger = await loginAs(t, await createAdminUser(t, await createSubject(t), { superuser: true }));
  });
  afterAll(() => t.close());

  const post = (path: string, body: unknown, token = admin) => t.api('POST', `/api/admin/v1/${path}`, { token, body });
  const put = (path: string, body: unknown, token = admin) => t.api('PUT', `/api/admin/v1/${path}`, { token, body });
  const get = (path: string, token = admin) => t.api('GET', `/api/admin/v1/${path}`, { token });

  it('user fields: all nine types, options only for SELECT and SELECT_MULTI, placeholder', async () => {
    const types = (await get('custom-field-type')).body.data;
    expect(types.map((x: { code: string }) => x.code)).toEqual([
      'TEXT',
      'NUMBER',
      'SELECT_MULTI',
      'SELECT',
      'ADDRESS',
      'EMAIL',
      'BOOL',
      'PHONE',
      'IMAGE',
    ]);
    const text = await post('custom-field', {
      name: 'company',
      label: ml('Firma'),
      customFieldType: 1,
      options: [{ value: 'dropped' }],
    });
    expect(text.status).toBe(201);
    expect(text.body.data).toMatchObject({ customFieldType: { id: 1, code: 'TEXT' }, options: [] });
    expect(text.body.data.placeholder).toBe(`{{custom_field.[${text.body.data.id}]}}`);
    const select = await post('custom-field', {
      name: 'size',
      label: ml('Velikost'),
      customFieldType: 4,
      options: [{ value: 'S' }, { value: 'M' }],
    });
    const options = select.body.data.options;
    expect(options.map((o: { value: string }) => o.value)).toEqual(['S', 'M']);
    const renamed = await put(`custom-field/${select.body.data.id}`, {
      name: 'size',
      label: ml('Velikost trička'),
      customFieldType: 4,
      options: [options[0], { value: 'XL' }],
    });
    expect(renamed.body.data.options[0].id).toBe(options[0].id);
    const noOptions = await post('custom-field', { name: 'x', label: ml('X'), customFieldType: 3 });
    expect(noOptions.body.error.details.fields).toEqual([{ path: 'options', key: 'customField.optionsRequired' }]);
    const missing = await post('custom-field', { label: { cs: '' } });
    expect(missing.body.error.details.fields).toEqual([
      { path: 'name', key: 'basics.requireField' },
      { path: 'label.cs', key: 'basics.requireField' },
      { path: 'customFieldType', key: 'basics.requireField' },
    ]);
  });

  it('actions: multi-day with days in the range, dates in order, default end time, user fields', async () => {
    const field = (await post('custom-field', { name: 'phone', label: ml('Telefon'), customFieldType: 8 })).body.data;
    const body = {
      name: { cs: 'Veletrh', sk: '', en: 'Fair', de: 'Messe' },
      dateFrom: '2027-05-10T08:00',
      dateTo: '2027-05-12',
      multiDay: true,
      days: [
        { id: '2027-05-10', name: ml('Pondělí'), onAccreditation: 'PO' },
        { id: '2027-05-11', name: ml('Úterý'), onAccreditation: 'ÚT' },
      ],
      customField: [{ id: field.id, isMandatory: true, notShow: true, defaultValue: '+420' }],
      checkingAttributes: [{ label: ml('Souhlasím s GDPR'), url: 'https://example.com/gdpr', required: true }],
      previewData: { title: ml('Vstupenka'), credit: { show: true, title: ml('Kredit') } },
      withPhoto: true,
      requirePhoto: true,
    };
    const created = await post('action', body);
    expect(created.status).toBe(201);
    const action = created.body.data;
    expect(action).toMatchObject({
      dateTo: '2027-05-12T23:59',
      multiDay: true,
      requirePhoto: true,
      customField: [{ id: field.id, name: 'phone', isMandatory: true, notShow: true, defaultValue: '+420' }],
    });
    expect(action.days.map((d: { id: string }) => d.id)).toEqual(['2027-05-10', '2027-05-11']);
    expect(action.checkingAttributes[0].id).toMatch(/\w+/);
    expect((await get(`action/${action.id}`)).body.data.name.de).toBe('Messe');

    const noDays = await put(`action/${action.id}`, { ...body, days: [] });
    expect(noDays.body.error.details.fields).toEqual([{ path: 'days', key: 'action.multiDayNeedsDays' }]);
    const outside = await put(`action/${action.id}`, { ...body, dateTo: '2027-05-10T18:00' });
    expect(outside.body.error.details.fields).toEqual([{ path: 'days.1.id', key: 'basics.dateNotInActionRange' }]);
    const reversed = await put(`action/${action.id}`, {
      ...body,
      multiDay: false,
      dateFrom: '2027-06-01T00:00',
      dateTo: '2027-05-01T00:00',
    });
    expect(reversed.body.error.details.fields).toEqual([{ path: 'dateTo', key: 'action.dateFromAfterTo' }]);
    const half = await put(`action/${action.id}`, { ...body, multiDay: false, dateTo: null });
    expect(half.body.error.details.fields).toEqual([{ path: 'dateTo', key: 'action.dateToRequired' }]);
    const noTitle = await put(`action/${action.id}`, { ...body, previewData: { custom: { show: true } } });
    expect(noTitle.body.error.details.fields).toEqual([
      { path: 'previewData.custom.title.cs', key: 'basics.requireField' },
    ]);
    const noName = await post('action', { name: { cs: ' ' } });
    expect(noName.body.error.details.fields).toEqual([{ path: 'name.cs', key: 'basics.requireField' }]);

    const single = await put(`action/${action.id}`, { ...body, multiDay: false });
    expect(single.body.data.days).toEqual([]);
    expect((await get('action')).body.data.map((a: { id: number }) => a.id)).toContain(action.id);

    // The current action, remembered per user.
    expect((await put('actual/action', { actionId: action.id })).body.data).toEqual({ lastAction: action.id });
    expect((await get('actual')).body.data.lastAction).toBe(action.id);
    const me = (await get('admin-user')).body.data.find(
      (u: { lastAction: number | null }) => u.lastAction === action.id,
    );
    expect(me.lastActionName.de).toBe('Messe');
    const foreign = await post(
      'admin-user',
      { login: 'x@y.cz', password: 'long-enough', name: 'X', actionId: action.id },
      stranger,
    );
    expect(foreign.body.error.details.fields).toEqual([{ path: 'actionId', key: 'basics.invalidValue' }]);
    expect((await put('actual/action', { actionId: action.id }, stranger)).status).toBe(400);
  });

  it('refuses another subject’s user field, template or image as a reference', async () => {
    const theirs = (await post('custom-field', { name: 'z', label: ml('Z'), customFieldType: 1 }, stranger)).body.data;
    const res = await post('action', { name: ml('A'), customField: [{ id: theirs.id }] });
    expect(res.status).toBe(400);
    expect(res.body.error.details.fields).toEqual([{ path: 'customField', key: 'basics.invalidValue' }]);
    expect((await get(`custom-field/${theirs.id}`)).status).toBe(404);
  });

  it('groups and zones: zones of the group’s action, the zones-of-a-group call, the not-assigned group', async () => {
    const action = (
      await post('action', { name: ml('Koncert'), dateFrom: '2027-01-01T18:00', dateTo: '2027-01-01T23:00' })
    ).body.data;
    const template = (await post('template', { name: 'Badge A6', pageSize: 'A6', htmlData: '<b>{{firstname}}</b>' }))
      .body.data;
    const vip = (await post('zone', { name: 'VIP', onAccreditation: 'V', actionId: action.id })).body.data;
    const stage = (await post('zone', { name: 'Stage', onAccreditation: 'S', actionId: action.id })).body.data;
    const elsewhere = (await post('zone', { name: 'Other', actionId: null })).body.data;
    const group = await post('groups', {
      name: 'Press',
      displayName: { cs: 'Novináři', en: 'Press' },
      label: 'P',
      htmlData: '<i>press</i>',
      adminTemplateId: template.id,
      zoneId: [vip.id, stage.id],
      actionId: action.id,
      assignDefaultMeal: true,
    });
    expect(group.status).toBe(201);
    expect(group.body.data).toMatchObject({
      name: 'Press',
      adminTemplateName: 'Badge A6',
      zones: [
        { id: vip.id, name: 'VIP' },
        { id: stage.id, name: 'Stage' },
      ],
      actionName: { cs: 'Koncert' },
      assignDefaultMeal: true,
    });
    expect((await get(`groups/${group.body.data.id}/zones`)).body.data.map((z: { name: string }) => z.name)).toEqual([
      'VIP',
      'Stage',
    ]);
    expect((await get(`zone/${vip.id}`)).body.data.groups).toEqual([{ id: group.body.data.id, name: 'Press' }]);

    const other = (await post('action', { name: ml('Jiná') })).body.data;
    const wrongAction = await post('groups', { name: 'X', zoneId: [vip.id], actionId: other.id });
    expect(wrongAction.body.error.details.fields).toEqual([{ path: 'zoneId', key: 'groups.zoneOfOtherAction' }]);
    const unassigned = await post('groups', { name: 'Loose', zoneId: [elsewhere.id] });
    expect(unassigned.body.data.actionId).toBeNull();
    expect((await post('zone', {})).body.error.details.fields).toEqual([{ path: 'name', key: 'basics.requireField' }]);
    expect((await get('groups', stranger)).body.data).toEqual([]);
    expect((await put(`groups/${group.body.data.id}`, { name: 'Mine' }, stranger)).status).toBe(404);
    expect((await post('groups', { name: 'nope' }, readOnly)).status).toBe(403);
  });

  it('templates: both lists, the mail template’s default body, page sizes, copy addresses', async () => {
    const badge = await post('template', { name: 'Badge', pageSize: 'A5-L' });
    expect(badge.body.data).toMatchObject({ pageSize: 'A5-L', htmlData: '' });
    expect((await post('template', { name: 'Bad', pageSize: 'A3' })).body.error.details.fields).toEqual([
      { path: 'pageSize', key: 'basics.requireField' },
    ]);
    const mail = await post('mail-template', {
      name: 'Welcome',
      type: 1,
      subjectFrom: 'Welcome to the fair',
      mailCopy: ['boss@fair.cz'],
    });
    expect(mail.status).toBe(201);
    expect(mail.body.data.html).toContain('{{firstname}}');
    expect(
      (await post('mail-template', { name: 'X', subjectFrom: '', mailCopy: ['nope'] })).body.error.details.fields,
    ).toEqual([
      { path: 'subjectFrom', key: 'basics.requireField' },
      { path: 'mailCopy.0', key: 'basics.emailNotValid' },
    ]);
    const lists = (await get('template')).body.data;
    expect(lists.map((l: { type: string }) => l.type)).toEqual(['mail', 'accreditation']);
    expect(lists[0].items.map((m: { name: string }) => m.name)).toContain('Welcome');
    expect(lists[1].items.map((m: { name: string }) => m.name)).toContain('Badge');
    const edited = await put(`mail-template/${mail.body.data.id}`, {
      ...mail.body.data,
      html: '<p>Hi {{firstname}}</p>',
    });
    expect((await get(`mail-template/${mail.body.data.id}`)).body.data.html).toBe('<p>Hi {{firstname}}</p>');
    expect(edited.status).toBe(200);
  });

  it('gallery: upload by content, list with type and phrase, new version on edit, served with caching', async () => {
    const created = await post('image', { type: 3, name: 'Logo fair', baseData: pngDataUrl(40, 20) });
    expect(created.status).toBe(201);
    const image = created.body.data;
    expect(image).toMatchObject({
      name: 'Logo fair',
      type: 3,
      width: 40,
      height: 20,
      mimeType: 'image/png',
      version: 1,
    });
    const file = await fetch(t.url + image.path);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/png');
    expect(file.headers.get('cache-control')).toContain('immutable');
    expect((await file.arrayBuffer()).byteLength).toBe(image.size);

    await post('image', { type: 1, name: 'Photo of Anna', baseData: pngDataUrl() });
    const page = await post('image/all', { page: 1, pageSize: 8, type: 3, phrase: 'logo' });
    expect(page.body.max).toBe(1);
    expect(page.body.data.map((i: { name: string }) => i.name)).toEqual(['Logo fair']);
    expect((await post('image/all', { page: 1, pageSize: 8, phrase: '%' })).body.max).toBe(0);
    await post('image', { type: 2, name: 'badge_2027', baseData: pngDataUrl() });
    expect(
      (await post('image/all', { page: 1, pageSize: 8, phrase: '_' })).body.data.map((i: { name: string }) => i.name),
    ).toEqual(['badge_2027']);

    const edited = await put(`image/${image.id}`, { name: 'Logo cropped', data: pngDataUrl(20, 20) });
    expect(edited.body.data).toMatchObject({ name: 'Logo cropped', width: 20, version: 2 });
    expect(edited.body.data.path).not.toBe(image.path);
    expect((await fetch(t.url + image.path)).status).toBe(404);

    const text = `data:image/png;base64,${Buffer.from('just some text, not a picture').toString('base64')}`;
    expect((await post('image', { name: 'fake', baseData: text })).body.error.details.fields).toEqual([
      { path: 'baseData', key: 'photo.invalidType' },
    ]);
    const huge = `data:image/png;base64,${Buffer.alloc(2_097_153).toString('base64')}`;
    const tooBig = await post('image', { name: 'huge', baseData: huge });
    expect(tooBig.status).toBe(400);
    expect(tooBig.body.error.details.fields).toEqual([{ path: 'baseData', key: 'photo.chooseToolTipOnline' }]);
    expect((await get(`image/${image.id}`, stranger)).status).toBe(404);
    expect((await fetch(`${t.url}/api/file/..%2F..%2Fetc%2Fpasswd`)).status).toBe(404);
  });
});
