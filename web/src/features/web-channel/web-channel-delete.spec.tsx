import { afterEach, describe, it, vi } from 'vitest';
import { expectDeleteGoesBack, expectDeleteRefusal } from '../../testing/delete-record';
import { webChannel } from '../../testing/fixtures';
import { webChannelRoutes } from './routes';

const text = (cs: string) => ({ cs, sk: '', en: '', de: '' });
const channel = webChannel();
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
