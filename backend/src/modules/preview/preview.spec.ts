import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminUser, createSubject, createTestApp, loginAs, type TestApp } from '../../testing/test-app.js';
import { AccreditationEntity } from '../accreditation/accreditation.entity.js';
import { AccreditationExtensionEntity } from '../action-extension/action-extension.entity.js';
import { type ExtensionWorld, extensionWorld, ml } from '../action-extension/extension-testing.js';
import { ActionEntity } from '../action/action.entity.js';
import { MailContexts } from '../mail/mail-render.js';
import { RateLimitEntity } from '../rate-limit/rate-limit.entity.js';

const block = (show: boolean, title = '') => ({ show, title: ml(title), html: ml(show ? `<p>${title}</p>` : '') });

describe('preview page API (spec §7 Preview, §3 Preview data, §8 Preview)', () => {
  let t: TestApp;
  let w: ExtensionWorld;
  let subjectKey: string;
  let items: { id: number; options: { id: number }[] }[];

  const base = '/api/preview/v1/user';
  // every test call comes from its own address, so the lookups limit only bites where tested
  let ip = 0;
  const from = () => ({ 'x-forwarded-for': `10.0.${Math.floor(++ip / 250)}.${ip % 250}` });
  const get = (code: string, key = subjectKey, token?: string) =>
    t.api('GET', `${base}/${key}/${encodeURIComponent(code)}`, { token, headers: from() });
  const put = (code: string, type: number | string, body: unknown) =>
    t.api('PUT', `${base}/${subjectKey}/${encodeURIComponent(code)}/extension/${type}`, { body, headers: from() });

  const setPreview = async (patch: Record<string, unknown>, smartBc = true) => {
    const repo = t.ds.getRepository(ActionEntity);
    const action = await repo.findOneByOrFail({ id: w.action.id });
    await repo.update(
      { id: action.id },
      { smartBc, previewData: { ...action.previewData, ...patch } as ActionEntity['previewData'] },
    );
  };

  beforeAll(async () => {
    t = await createTestApp({ TRUST_PROXY: '1' });
    w = await extensionWorld(t);
    subjectKey = (
      await t.ds.getRepository(ActionEntity).query('SELECT `key` FROM subject WHERE id = ?', [w.subjectId])
    )[0].key;
    const saved = await w.lunches(1, null);
    expect(saved.status).toBe(200);
    items = saved.body.data.items;
    await setPreview({
      title: ml('Festival info'),
      custom: block(true, 'About'),
      credit: block(true, 'Your credit'),
      meal: { ...block(true, 'Lunches'), allowSelect: true, selectDateTime: '2999-01-01T00:00' },
      parking: { ...block(false), allowSelect: false, selectDateTime: null },
    });
  });
  afterAll(() => t?.close());

  it("answers the person's page: the blocks, credit, days and meal items, nothing else about them", async () => {
    const eva = await w.person(1, { days: ['2026-06-02'] });
    const res = await get(eva.bc);
    expect(res.status).toBe(200);
    const d = res.body.data;
    expect(d.previewData.title.cs).toBe('Festival info');
    expect(d.previewData.custom).toMatchObject({ show: true, html: { cs: '<p>About</p>' } });
    expect(d.previewData.parking.show).toBe(false);
    expect(d).toMatchObject({
      isCredit: false,
      credit: 0,
      unlimited: false,
      allowMealSelect: true,
      allowParkingSelect: false,
      test: false,
      userMeal: [],
    });
    expect(d.userDays).toEqual([{ id: '2026-06-02', name: ml('Day 2') }]);
    expect(d.mealItems).toHaveLength(3);
    // no name, e-mail or code of the person
    const text = JSON.stringify(d);
    expect(text).not.toContain(eva.bc);
    expect(text).not.toContain('Eva1');
  });

  it('shows the credit balance and the unlimited flag of a credit action', async () => {
    const eva = await w.person(2);
    await t.ds.getRepository(ActionEntity).update({ id: w.action.id }, { isCredit: true });
    await t.ds.getRepository(AccreditationEntity).update({ id: eva.id }, { credit: 250 });
    expect((await get(eva.bc)).body.data).toMatchObject({ isCredit: true, credit: 250, unlimited: false });
    await t.ds.getRepository(AccreditationEntity).update({ id: eva.id }, { credit: null, isUnlimited: true });
    expect((await get(eva.bc)).body.data).toMatchObject({ credit: 0, unlimited: true });
    await t.ds.getRepository(ActionEntity).update({ id: w.action.id }, { isCredit: false });
  });

  it('answers 404 PREVIEW_NOT_FOUND for an unknown key or code, a superseded badge and an action without smartBc', async () => {
    const eva = await w.person(3);
    for (const [code, key] of [
      ['NOPE0000000000000', subjectKey],
      [eva.bc, 'no-such-subject'],
      [eva.bc, 'bad key!'],
      [`${eva.bc}-1`, subjectKey],
      ['x'.repeat(70), subjectKey],
    ]) {
      const res = await get(code, key);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('PREVIEW_NOT_FOUND');
    }
    // after a replacing print the old code is superseded, the new one opens the page
    await t.ds.getRepository(AccreditationEntity).update({ id: eva.id }, { badgeVersion: 1 });
    expect((await get(eva.bc)).body.error.code).toBe('PREVIEW_NOT_FOUND');
    expect((await get(`${eva.bc}-1`)).status).toBe(200);
    expect((await get(`${eva.bc}-2`)).status).toBe(404);
    // another subject's person is not found through this subject's key
    const other = await createSubject(t);
    expect((await get(eva.bc, other.key)).status).toBe(404);
    await setPreview({}, false);
    expect((await get(`${eva.bc}-1`)).status).toBe(404);
    await setPreview({}, true);
  });

  it('the test preview tst{actionId} answers sample data only to an admin holding goToPreview', async () => {
    const code = `tst${w.action.id}`;
    expect((await get(code)).status).toBe(404);
    const noRight = await w.adminWith({ grant: [['user', 'getUser']] });
    expect((await get(code, subjectKey, noRight)).status).toBe(404);
    const stranger = await loginAs(t, await createAdminUser(t, await createSubject(t), { superuser: true }));
    expect((await get(code, subjectKey, stranger)).status).toBe(404);
    const holder = await w.adminWith({ grant: [['user', 'goToPreview']] });
    const res = await get(code, subjectKey, holder);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ test: true, userMeal: [] });
    expect(res.body.data.userDays).toHaveLength(3);
    expect((await get(`tst${w.action.id + 999}`, subjectKey, holder)).status).toBe(404);
    // nothing can be saved on a test preview
    expect((await put(code, 1, { items: [] })).status).toBe(404);
  });

  it('self-selection: choose, change the option, give back; a full item is 409 and nothing is written', async () => {
    const eva = await w.person(4);
    const [first, second] = items;
    const veg = first.options[0].id;
    let res = await put(eva.bc, 1, { items: [{ itemId: first.id, option: veg }] });
    expect(res.status).toBe(200);
    expect(res.body.data.userMeal).toMatchObject([{ itemId: first.id, option: veg, dateUsed: null }]);
    // the capacity of each lunch is 1: somebody else cannot take it
    const adam = await w.person(5);
    res = await put(adam.bc, 1, { items: [{ itemId: first.id, option: null }] });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('EXTENSION_CAPACITY_FULL');
    expect(await t.ds.getRepository(AccreditationExtensionEntity).countBy({ accreditationId: adam.id })).toBe(0);
    // the whole list: naming the second only gives the first back
    res = await put(eva.bc, 1, { items: [{ itemId: second.id, option: null }] });
    expect(res.status).toBe(200);
    expect(res.body.data.userMeal.map((i: { itemId: number }) => i.itemId)).toEqual([second.id]);
    expect((await put(adam.bc, 1, { items: [{ itemId: first.id, option: null }] })).status).toBe(200);
    // an item of another action is refused
    expect((await put(eva.bc, 1, { items: [{ itemId: 999_999, option: null }] })).body.error.code).toBe(
      'EXTENSION_ITEM_INVALID',
    );
  });

  it('a used meal stays locked; a change to it is 409 EXTENSION_MEAL_USED', async () => {
    const eva = await w.person(6);
    const third = items[2];
    expect((await put(eva.bc, 1, { items: [{ itemId: third.id, option: null }] })).status).toBe(200);
    await t.ds
      .getRepository(AccreditationExtensionEntity)
      .update({ accreditationId: eva.id, itemId: third.id }, { dateUsed: new Date() });
    // given back by leaving it out: it stays
    let res = await put(eva.bc, 1, { items: [] });
    expect(res.status).toBe(200);
    expect(res.body.data.userMeal).toHaveLength(1);
    // named as it is: fine; with another option: refused
    expect((await put(eva.bc, 1, { items: [{ itemId: third.id, option: null }] })).status).toBe(200);
    res = await put(eva.bc, 1, { items: [{ itemId: third.id, option: third.options[0].id }] });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('EXTENSION_MEAL_USED');
  });

  it('after the deadline, without allowSelect or for a hidden block the selection is 403 PREVIEW_SELECT_CLOSED', async () => {
    const eva = await w.person(7);
    await setPreview({ meal: { ...block(true, 'Lunches'), allowSelect: true, selectDateTime: '2020-01-01T00:00' } });
    expect((await get(eva.bc)).body.data.allowMealSelect).toBe(false);
    const res = await put(eva.bc, 1, { items: [] });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('PREVIEW_SELECT_CLOSED');
    await setPreview({ meal: { ...block(true, 'Lunches'), allowSelect: false, selectDateTime: null } });
    expect((await put(eva.bc, 1, { items: [] })).body.error.code).toBe('PREVIEW_SELECT_CLOSED');
    // parking's block is hidden
    expect((await put(eva.bc, 2, { items: [] })).body.error.code).toBe('PREVIEW_SELECT_CLOSED');
    await setPreview({ meal: { ...block(true, 'Lunches'), allowSelect: true, selectDateTime: '2999-01-01T00:00' } });
  });

  it('bad input is a clear 4xx: type, body', async () => {
    const eva = await w.person(8);
    expect((await put(eva.bc, 3, { items: [] })).body.error.code).toBe('ACTION_EXTENSION_DOESNT_EXIST');
    expect((await put(eva.bc, 'x', { items: [] })).status).toBe(404);
    const res = await put(eva.bc, 1, { items: [{ itemId: 'a' }] });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect((await put(eva.bc, 1, { items: 'x' })).status).toBe(400);
  });

  it("a mail's smartLink points at the person's preview page with the valid badge's code", async () => {
    const eva = await w.person(9);
    const repo = t.ds.getRepository(AccreditationEntity);
    await repo.update({ id: eva.id }, { badgeVersion: 2 });
    const params = await new MailContexts(t.ds, 'http://accredo.test').forAccreditations(w.subjectId, [
      await repo.findOneByOrFail({ id: eva.id }),
    ]);
    const link = String((params.get(eva.id) as Record<string, unknown>).smartLink);
    expect(link).toBe(`http://accredo.test/preview/${subjectKey}/cid/${eva.bc}-2`);
    expect((await get(link.split('/cid/')[1])).status).toBe(200);
  });

  it('limits lookups per address (429 TOO_MANY_REQUESTS with retryAfter)', async () => {
    const headers = { 'x-forwarded-for': '192.0.2.77' };
    let last = 0;
    for (let i = 0; i < 61; i++) last = (await t.api('GET', `${base}/${subjectKey}/NOPE${i}`, { headers })).status;
    expect(last).toBe(429);
    await t.ds.getRepository(RateLimitEntity).clear();
  });
});
