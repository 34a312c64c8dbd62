import {
  type ApiResult,
  createAdminUser,
  createSubject,
  loginAs,
  type TestApp,
  type UserOptions,
} from '../../testing/test-app.js';

export const ml = (cs: string) => ({ cs, sk: '', en: '', de: '' });
export const DAYS = ['2026-06-01', '2026-06-02', '2026-06-03'];

export interface ExtensionWorld {
  subjectId: number;
  admin: string;
  action: { id: number };
  groups: { id: number }[];
  call(method: string, path: string, body?: unknown, token?: string): Promise<ApiResult>;
  person(k: number, extra?: Record<string, unknown>): Promise<{ id: number; bc: string }>;
  /** another admin of the subject with just these rights */
  adminWith(options: UserOptions): Promise<string>;
  /** a lunch per day 12:00-13:00 with a vegetarian option; returns the saved data */
  lunches(capacity?: number | null, optionCapacity?: number | null): Promise<ApiResult>;
}

/**
 * A subject with both extensions, a three-day action with the meal and parking extensions active,
 * and two groups (Visitors, Crew).
 */
export async function extensionWorld(t: TestApp, multiDay = true, days = DAYS): Promise<ExtensionWorld> {
  const subject = await createSubject(t, { extensions: [1, 2] });
  const admin = await loginAs(t, await createAdminUser(t, subject, { superuser: true }));
  const call = (method: string, path: string, body?: unknown, token = admin) =>
    t.api(method, `/api/admin/v1/${path}`, { token, body });
  const created = await call('POST', 'action', {
    name: ml('Festival'),
    dateFrom: `${days[0]}T08:00`,
    dateTo: `${days[2]}T18:00`,
    multiDay,
    days: multiDay ? days.map((d, i) => ({ id: d, name: ml(`Day ${i + 1}`), onAccreditation: `D${i + 1}` })) : [],
  });
  if (created.status !== 201) throw new Error(`action: ${created.status} ${JSON.stringify(created.body)}`);
  const action = created.body.data;
  for (const type of [1, 2]) await call('POST', `action-extension/${type}/${action.id}`, { active: true });
  const groups = [
    (await call('POST', 'groups', { name: 'Visitors', actionId: action.id })).body.data,
    (await call('POST', 'groups', { name: 'Crew', actionId: action.id })).body.data,
  ];
  let n = 0;
  return {
    subjectId: subject.id,
    admin,
    action,
    groups,
    call,
    async person(k, extra = {}) {
      n++;
      const res = await call('POST', 'user', {
        actionId: action.id,
        firstname: `Eva${k}`,
        lastname: `Meal${k}`,
        email: `eva${k}-${n}-${subject.id}@example.com`,
        groupIds: [groups[0].id],
        ...extra,
      });
      if (res.status !== 201) throw new Error(`person: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.data;
    },
    async adminWith(options) {
      return loginAs(t, await createAdminUser(t, subject, options));
    },
    lunches(capacity = null, optionCapacity = null) {
      return call('PUT', `action-extension/${action.id}/1`, {
        items: DAYS.map((date) => ({
          label: ml(`Lunch ${date}`),
          date,
          timeFrom: '12:00',
          timeTo: '13:00',
          capacity,
          options: [{ name: ml('Vegetarian'), note: 'no meat', capacity: optionCapacity }],
        })),
      });
    },
  };
}
