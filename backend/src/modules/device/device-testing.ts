import { type ApiResult, createAdminUser, createSubject, loginAs, type TestApp } from '../../testing/test-app.js';

const ml = (cs: string) => ({ cs, sk: '', en: '', de: '' });
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

export interface GateWorld {
  subjectId: number;
  admin: string;
  action: { id: number };
  groups: { id: number }[];
  zone: { id: number };
  post(path: string, body: unknown, token?: string): Promise<ApiResult>;
  put(path: string, body: unknown, token?: string): Promise<ApiResult>;
  get(path: string, token?: string): Promise<ApiResult>;
  person(n: number, extra?: Record<string, unknown>): Promise<{ id: number; bc: string }>;
  template(data: unknown, extra?: Record<string, unknown>): Promise<{ id: number }>;
  /** pairs a new device of this subject (optionally with a template) and returns its token and id */
  device(uid: string, templateId?: number): Promise<{ token: string; id: number }>;
  scan(token: string, body: Record<string, unknown>): Promise<ApiResult>;
}

/** A subject with an action running today (yesterday … in a year), two groups, a zone. */
export async function gateWorld(t: TestApp): Promise<GateWorld> {
  const subject = await createSubject(t);
  const admin = await loginAs(t, await createAdminUser(t, subject, { superuser: true }));
  const post = (path: string, body: unknown, token = admin) => t.api('POST', `/api/admin/v1/${path}`, { token, body });
  const put = (path: string, body: unknown, token = admin) => t.api('PUT', `/api/admin/v1/${path}`, { token, body });
  const get = (path: string, token = admin) => t.api('GET', `/api/admin/v1/${path}`, { token });
  const action = (
    await post('action', {
      name: ml('Festival'),
      dateFrom: `${day(-1)}T00:00`,
      dateTo: `${day(365)}T23:59`,
      isCredit: true,
    })
  ).body.data;
  if (!action?.id) throw new Error(`action: ${JSON.stringify(action)}`);
  const zone = (await post('zone', { name: 'Backstage', onAccreditation: 'BS', actionId: action.id })).body.data;
  const groups = [
    (await post('groups', { name: 'Visitors', actionId: action.id })).body.data,
    (await post('groups', { name: 'Crew', actionId: action.id })).body.data,
  ];
  let n = 0;
  const world: GateWorld = {
    subjectId: subject.id,
    admin,
    action,
    groups,
    zone,
    post,
    put,
    get,
    async person(k, extra = {}) {
      n++;
      const res = await post('user', {
        actionId: action.id,
        firstname: `Eva${k}`,
        lastname: `Gate${k}`,
        email: `eva${k}-${n}-${subject.id}@example.com`,
        groupIds: [groups[0].id],
        ...extra,
      });
      if (res.status !== 201) throw new Error(`person: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.data;
    },
    async template(data, extra = {}) {
      const res = await post('device-template', { name: 'Main gate', actionId: action.id, data, ...extra });
      if (res.status !== 201) throw new Error(`template: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.data;
    },
    async device(uid, templateId) {
      const key = (await get('device/key')).body.data;
      const res = await t.api('POST', '/api/device/v1/pair', {
        body: { code: key.bc, uid, name: uid, appVersion: '1.0' },
      });
      if (res.status !== 200) throw new Error(`pair: ${res.status} ${JSON.stringify(res.body)}`);
      const { token, device } = res.body.data;
      if (templateId) await put(`device/${device.id}`, { name: uid, uid, deviceTemplateId: templateId });
      return { token: `Bearer ${token}`, id: device.id };
    },
    scan(token, body) {
      return t.api('POST', '/api/device/v1/scan', { token, body: { direction: 'entry', ...body } });
    },
  };
  return world;
}

export const entryRules = (groupId: number, entrances: number, extra: Record<string, unknown> = {}) => ({
  mode: 1,
  rules: [{ groupId, entrances, daily: false, levelId: 0, info: false, customRule: [], ...extra }],
  globalRule: null,
});
