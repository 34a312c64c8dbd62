import type { WebChannel } from '@accredo/domain';
import { afterEach, describe, it, vi } from 'vitest';
import { expectDeleteGoesBack, expectDeleteRefusal } from '../../testing/delete-record';
import { webChannelRoutes } from './routes';

const text = (cs: string) => ({ cs, sk: '', en: '', de: '' });
const empty = text('');
const channel: WebChannel = {
  id: 9,
  name: 'Press',
  channelKey: 'press9',
  link: '/app/online/press9',
  state: 'open',
  actionId: 1,
  active: true,
  dateFrom: null,
  dateTo: null,
  viewGroups: false,
  groupsSelectName: empty,
  groupsId: [],
  viewDays: false,
  daysSelectName: empty,
  defaultDays: [],
  viewMealSelect: false,
  viewParkingSelect: false,
  customNameFirstname: empty,
  customNameLastname: empty,
  customNameEmail: empty,
  afterAdd: { action: 1 },
  mailTemplateId: null,
  customField: [],
  withAuthorization: false,
  byPassword: false,
  byCode: false,
  authorizationType: 2,
  authorizationText: empty,
  hasPassword: false,
  numberUseExtCode: 0,
  imageId: null,
  image: null,
  users: [],
  externalCode: [],
  dateCreate: '2026-01-01T10:00:00.000Z',
};
const api = {
  'GET action': [{ id: 1, name: text('Festival') }],
  'GET action/1': {
    id: 1,
    name: text('Festival'),
    dateFrom: '2026-05-01T08:00',
    dateTo: '2026-05-02T23:59',
    multiDay: false,
    days: [],
    customField: [],
    extension: [],
  },
  'GET groups': [],
  'GET mail-template': [],
  'GET web-channel': [],
  'GET web-channel/9': channel,
};

afterEach(() => vi.unstubAllGlobals());

describe('web channel detail: Delete (issue 15)', () => {
  it('asks, deletes and goes back to the list', () =>
    expectDeleteGoesBack({
      routes: webChannelRoutes,
      path: '/web-channel/detail/9',
      api,
      deletePath: 'web-channel/9',
      listPath: '/web-channel',
    }));

  it('shows how many registered through it and stays', () =>
    expectDeleteRefusal({
      routes: webChannelRoutes,
      path: '/web-channel/detail/9',
      api,
      deletePath: 'web-channel/9',
      code: 'WEB_CHANNEL_HAS_REGISTRATIONS',
      details: { count: 7 },
    }));
});
