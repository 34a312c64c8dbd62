import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminUser, createSubject, createTestApp, loginAs, type TestApp } from '../../testing/test-app.js';

/** Archive instead of delete (issue 15, docs/archive.md): actions, web channels, groups, badge templates. */
describe('POST <entity>/{id}/archive and /restore (issue 15)', () => {
  let t: TestApp;
  let token: string;
  let otherToken: string;
  let readerToken: string;
  const api = (method: string, path: string, body?: unknown, as = token) =>
    t.api(method, `/api/admin/v1/${path}`, { token: as, body, headers: { 'accept-language': 'en' } });
  const created = async (path: string, body: unknown) => {
    const res = await api('POST', path, body);
    expect(res.status).toBe(201);
    return res.body.data as { id: number; channelKey?: string };
  };
  const newAction = (name: string) =>
    created('action', { name: { cs: name }, dateFrom: '2030-05-10T08:00', dateTo: '2030-05-11T18:00' });
  const person = (actionId: number, email: string, groupIds: number[] = []) =>
    api('POST', 'user', { actionId, firstname: 'Eva', lastname: 'Malá', email, groupIds });

  beforeAll(async () => {
    t = await createTestApp();
    const subject = await createSubject(t);
    token = await loginAs(t, await createAdminUser(t, subject, { superuser: true }));
    otherToken = await loginAs(t, await createAdminUser(t, await createSubject(t), { superuser: true }));
    // may see and edit everything, but delete (and so archive) nothing
    readerToken = await loginAs(
      t,
      await createAdminUser(t, subject, {
        grant: [
          ['action', 'get'],
          ['action', 'update'],
          ['groups', 'get'],
          ['webChannel', 'get'],
          ['template', 'get'],
        ],
      }),
    );
  });
  afterAll(() => t.close());

  it('archives and restores each kind with the delete right; the record answers archivedAt; another subject gets 404', async () => {
    const action = await newAction('Archivable');
    const records: [string, number][] = [
      ['action', action.id],
      ['web-channel', (await created('web-channel', { name: 'Form', actionId: action.id })).id],
      ['groups', (await created('groups', { name: 'Crew', actionId: action.id })).id],
      ['template', (await created('template', { name: 'A6', type: 1, pageSize: 'A6', htmlData: '<p>x</p>' })).id],
    ];
    for (const [path, id] of records) {
      expect((await api('POST', `${path}/${id}/archive`, undefined, otherToken)).status, path).toBe(404);
      expect((await api('POST', `${path}/${id}/archive`, undefined, readerToken)).status, path).toBe(403);
      const archived = await api('POST', `${path}/${id}/archive`);
      expect(archived.status, path).toBe(200);
      expect(archived.body.data.archivedAt, path).toMatch(/^\d{4}-\d\d-\d\dT/);
      // archiving again keeps the first time
      expect((await api('POST', `${path}/${id}/archive`)).body.data.archivedAt).toBe(archived.body.data.archivedAt);
      const listed = (await api('GET', path)).body.data;
      const rows =
        path === 'template' ? listed.find((l: { type: string }) => l.type === 'accreditation').items : listed;
      expect(rows.find((r: { id: number }) => r.id === id).archivedAt, path).toBe(archived.body.data.archivedAt);
      const restored = await api('POST', `${path}/${id}/restore`);
      expect(restored.status, path).toBe(200);
      expect(restored.body.data.archivedAt, path).toBeNull();
      expect((await api('GET', `${path}/${id}`)).body.data.archivedAt, path).toBeNull();
    }
  });

  it('an archived action takes no new people (office, copy, import) but its own people stay editable; restored, it takes them again', async () => {
    const action = await newAction('Last year');
    const target = await newAction('Also archived');
    const eva = (await person(action.id, 'eva@example.com')).body.data;
    await api('POST', `action/${action.id}/archive`);
    await api('POST', `action/${target.id}/archive`);

    const refused = await person(action.id, 'new@example.com');
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('ACTION_ARCHIVED');
    expect(refused.body.error.message).toBe('The event is archived: it takes no new people. Restore it first.');
    const copy = await api('POST', 'user/copy', { actualAction: action.id, actionId: target.id, userId: [eva.id] });
    expect(copy.body.error.code).toBe('ACTION_ARCHIVED');
    const imported = await api('POST', 'user/import', { actionId: action.id, dataFile: 'AAAA', zonesImportType: 1 });
    expect(imported.body.error.code).toBe('ACTION_ARCHIVED');

    const edited = await api('PUT', `user/${eva.id}`, { ...eva, actionId: action.id, firstname: 'Eva Marie' });
    expect(edited.status).toBe(200);
    expect(edited.body.data.firstname).toBe('Eva Marie');

    await api('POST', `action/${action.id}/restore`);
    expect((await person(action.id, 'new@example.com')).status).toBe(201);
  });

  it('an archived group is given to no one new, while a person who holds it keeps it', async () => {
    const action = await newAction('Groups');
    const crew = await created('groups', { name: 'Crew', actionId: action.id });
    const held = (await person(action.id, 'held@example.com', [crew.id])).body.data;
    const other = (await person(action.id, 'other@example.com')).body.data;
    await api('POST', `groups/${crew.id}/archive`);

    const refused = await person(action.id, 'late@example.com', [crew.id]);
    expect(refused.status).toBe(400);
    expect(refused.body.error.details.fields).toEqual([{ path: 'groupIds', key: 'recordArchive.groupArchived' }]);
    const join = await api('PUT', `user/${other.id}`, { ...other, groupIds: [crew.id] });
    expect(join.body.error.details.fields).toEqual([{ path: 'groupIds', key: 'recordArchive.groupArchived' }]);
    const bulk = await api('POST', 'user/assign-groups', {
      actionId: action.id,
      userId: [other.id],
      groupsId: [crew.id],
    });
    expect(bulk.body.error.details.fields).toEqual([{ path: 'groupsId', key: 'recordArchive.groupArchived' }]);

    const kept = await api('PUT', `user/${held.id}`, { ...held, lastname: 'Keeps' });
    expect(kept.status).toBe(200);
    expect(kept.body.data.groupIds).toEqual([crew.id]);

    // the import refuses it as the API does, row by row, and imports nothing
    const template = await fetch(`${t.url}/api/admin/v1/user/import/template/${action.id}`, {
      headers: { authorization: token },
    });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load((await template.arrayBuffer()) as never);
    wb.worksheets[0].addRow(['Ida', 'Nová', 'ida@example.com', 'crew']);
    wb.worksheets[0].addRow(['Jan', 'Nový', 'jan@example.com', '']);
    const dataFile = `data:application/vnd.openxmlformats-officedocument.spreadsheetml.sheet;base64,${Buffer.from(await wb.xlsx.writeBuffer()).toString('base64')}`;
    const imported = await api('POST', 'user/import', { actionId: action.id, dataFile, zonesImportType: 1 });
    expect(imported.status).toBe(400);
    expect(imported.body.error.details.rows).toEqual([{ row: 2, code: 'GROUP_ARCHIVED_ON_ROW_' }]);
    const [{ n }] = await t.ds.query(
      "SELECT COUNT(*) AS n FROM accreditation WHERE email IN ('ida@example.com', 'jan@example.com')",
    );
    expect(Number(n)).toBe(0);
  });

  it('no group chooses an archived badge template anew; a group printing with it keeps it', async () => {
    const badge = await created('template', { name: 'Old A6', type: 1, pageSize: 'A6', htmlData: '<p>x</p>' });
    const group = await created('groups', { name: 'Printing', adminTemplateId: badge.id });
    await api('POST', `template/${badge.id}/archive`);
    const renamed = await api('PUT', `groups/${group.id}`, { name: 'Printing still', adminTemplateId: badge.id });
    expect(renamed.status).toBe(200);
    const refused = await api('POST', 'groups', { name: 'New', adminTemplateId: badge.id });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details.fields).toEqual([
      { path: 'adminTemplateId', key: 'recordArchive.templateArchived' },
    ]);
  });

  it('the online form of an archived channel, or of a channel of an archived action, is closed; archived groups are not offered', async () => {
    const action = await newAction('Fair');
    const open = await created('groups', { name: 'Open', actionId: action.id });
    const old = await created('groups', { name: 'Old', actionId: action.id });
    const channel = await created('web-channel', { name: 'Visitors', actionId: action.id, viewGroups: true });
    const online = (method: string, body?: unknown) =>
      t.api(method, `/api/online/v1/${method === 'GET' ? 'web-channel' : 'accreditation'}/${channel.channelKey}`, {
        body,
        headers: { 'accept-language': 'en' },
      });
    const keeper = await created('web-channel', { name: 'Old hands', actionId: action.id, groupsId: [old.id] });
    await api('POST', `groups/${old.id}/archive`);
    // no channel offers it anew; one that already offers it still saves
    const offering = await api('POST', 'web-channel', { name: 'New', actionId: action.id, groupsId: [old.id] });
    expect(offering.status).toBe(400);
    expect(offering.body.error.details.fields).toEqual([{ path: 'groupsId', key: 'recordArchive.groupArchived' }]);
    const kept = (await api('GET', `web-channel/${keeper.id}`)).body.data;
    const resaved = await api('PUT', `web-channel/${keeper.id}`, { ...kept, name: 'Old hands 2' });
    expect(resaved.status).toBe(200);
    expect(resaved.body.data.groupsId).toEqual([old.id]);
    const data = await t.api('GET', `/api/online/v1/web-channel/data/${channel.channelKey}`);
    expect(data.status).toBe(200);
    expect(data.body.data.groups.map((g: { id: number }) => g.id)).toEqual([open.id]);
    const withOld = await online('POST', { firstname: 'A', lastname: 'B', email: 'a@example.com', groups: [old.id] });
    expect(withOld.status).toBe(400);

    await api('POST', `web-channel/${channel.id}/archive`);
    const closed = await online('GET');
    expect(closed.status).toBe(403);
    expect(closed.body.error.code).toBe('WEB_CHANNEL_IS_CLOSED');
    expect(closed.body.error.message).toBe('The registration form is closed.');
    const admin = (await api('GET', `web-channel/${channel.id}`)).body.data;
    expect(admin.state).toBe('closed');
    await api('POST', `web-channel/${channel.id}/restore`);
    expect((await online('GET')).status).toBe(200);

    await api('POST', `action/${action.id}/archive`);
    const registration = await online('POST', {
      firstname: 'A',
      lastname: 'B',
      email: 'b@example.com',
      groups: [open.id],
    });
    expect(registration.body.error.code).toBe('WEB_CHANNEL_IS_CLOSED');
    await api('POST', `action/${action.id}/restore`);
    expect(
      (await online('POST', { firstname: 'A', lastname: 'B', email: 'b@example.com', groups: [open.id] })).status,
    ).toBe(201);
  });
});
