import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS } from '../../api/storage';
import { bodyOf, mockAdminApi } from '../../testing/mock-api';
import { jsonResponse, t } from '../../testing/render';
import { renderWithSession } from '../../testing/session';
import { LIVE_REFRESH_MS } from './live-page';
import { deviceRoutes } from './routes';

const name = (cs: string) => ({ cs, sk: '', en: '', de: '' });
const actions = [{ id: 1, name: name('Festival') }];
const devices = [
  {
    id: 3,
    name: 'North gate',
    uid: 'N',
    deviceTemplateId: null,
    deviceTemplate: null,
    paired: true,
    pairedAt: null,
    lastSeenAt: null,
    online: false,
    appVersion: null,
    createdAt: '',
  },
];
const label = (key: string) => new RegExp(`^${t(key)}`);
const input = (key: string) => screen.getByLabelText(label(key), { selector: 'input:not([type="hidden"])' });
const xlsx = (filename: string) =>
  new Response('xlsx-bytes', {
    status: 200,
    headers: {
      'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      'content-disposition': `attachment; filename="${filename}"`,
    },
  });

beforeEach(() => {
  window.localStorage.setItem(STORAGE_KEYS.adminToken, 'tok');
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

type User = ReturnType<typeof renderWithSession>['user'];
async function choose(user: User, field: HTMLElement, option: string) {
  await user.click(field);
  await user.click(within(await screen.findByRole('listbox')).getByRole('option', { name: option }));
}

describe('device reports', () => {
  it('shows the report as a table and downloads the same as xlsx', async () => {
    const createObjectURL = vi.fn((_: Blob) => 'blob:report');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const api = mockAdminApi({
      'GET action': actions,
      'GET device': devices,
      'POST report': (body: { responseType: string }) =>
        body.responseType === 'xlsx'
          ? xlsx('report-3.xlsx')
          : { type: 3, columns: ['Reason', 'Count'], rows: [['Daily entries used', 4]] },
    });
    const { user } = renderWithSession(deviceRoutes, '/device/report');
    await choose(
      user,
      await screen.findByLabelText(label('device.report.type'), { selector: 'input:not([type="hidden"])' }),
      t('device.report.types.3'),
    );
    await choose(user, input('device.report.action'), 'Festival');
    await choose(user, input('device.report.device'), 'North gate');
    await user.type(screen.getByLabelText(t('device.report.dateFrom')), '2026-11-20');
    await user.click(screen.getByRole('button', { name: t('device.report.show') }));
    const table = await screen.findByRole('table', { name: t('device.report.result') });
    expect(within(table).getByRole('columnheader', { name: 'Reason' })).toBeInTheDocument();
    expect(within(table).getByRole('row', { name: /Daily entries used\s*4/ })).toBeInTheDocument();
    expect(bodyOf(api.calls, 'POST', 'report')).toEqual({
      type: 3,
      actionId: 1,
      deviceId: 3,
      dateFrom: '2026-11-20',
      dateTo: null,
      responseType: 'json',
    });

    await user.click(screen.getByRole('button', { name: t('device.report.download') }));
    await waitFor(() => expect(createObjectURL).toHaveBeenCalledTimes(1));
    expect(api.bodies('report')[1]).toMatchObject({ type: 3, actionId: 1, responseType: 'xlsx' });
  });

  it('says so in a toast when the report fails (spec §8)', async () => {
    mockAdminApi({
      'GET action': actions,
      'GET device': devices,
      'POST report': jsonResponse({ error: { code: 'INTERNAL_ERROR', message: 'x', details: {} } }, 500),
    });
    const { user } = renderWithSession(deviceRoutes, '/device/report');
    await user.click(await screen.findByRole('button', { name: t('device.report.show') }));
    expect(await screen.findByText(t('device.report.error'))).toBeInTheDocument();
    expect(screen.queryByRole('table', { name: t('device.report.result') })).not.toBeInTheDocument();
  });

  it('downloads the entrance report of a chosen action', async () => {
    const createObjectURL = vi.fn((_: Blob) => 'blob:entrance');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const api = mockAdminApi({
      'GET action': actions,
      'GET device': devices,
      'POST report/entrance': () => xlsx('entrances-1.xlsx'),
    });
    const { user } = renderWithSession(deviceRoutes, '/device/report/entrance');
    const download = await screen.findByRole('button', { name: t('device.report.download') });
    expect(download).toBeDisabled();
    await choose(user, input('device.report.action'), 'Festival');
    await user.click(download);
    await waitFor(() => expect(createObjectURL).toHaveBeenCalledTimes(1));
    expect(bodyOf(api.calls, 'POST', 'report/entrance')).toEqual({
      actionId: 1,
      deviceId: null,
      dateFrom: null,
      dateTo: null,
    });
  });
});

describe('live view', () => {
  it('shows people inside per zone, entries per hour and refusals, and reads them again every few seconds', async () => {
    let reads = 0;
    const api = mockAdminApi({
      'GET action': actions,
      'GET report/live?actionId=1': () => {
        reads++;
        return {
          actionId: 1,
          day: '2026-11-25',
          at: '2026-11-25T10:00:00.000Z',
          zones: [
            { zoneId: 31, name: 'Hall', entries: 5, exits: 2, inside: reads === 1 ? 3 : 4 },
            { zoneId: null, name: null, entries: 1, exits: 0, inside: 1 },
          ],
          hours: Array.from({ length: 24 }, (_, hour) => ({ hour, entries: hour === 9 ? 6 : 0, exits: 0 })),
          scans: { total: 9, allowed: 7, refused: 2 },
          refusals: [{ reason: 'NO_GROUP', count: 2, message: 'The accreditation has no group' }],
          parking: [
            { areaId: 5, name: 'P1', inside: 7, capacity: 10 },
            { areaId: 6, name: 'Staff', inside: 2, capacity: null },
          ],
        };
      },
    });
    // fake timers that still let time pass, so the refresh interval can be skipped instead of waited for
    vi.useFakeTimers({ shouldAdvanceTime: true });
    renderWithSession(deviceRoutes, '/device/live');
    const inside = await screen.findByRole('table', { name: t('device.live.inside') });
    expect(within(inside).getByRole('row', { name: /Hall\s*3\s*5\s*2/ })).toBeInTheDocument();
    expect(within(inside).getByRole('row', { name: new RegExp(t('device.live.noZone')) })).toBeInTheDocument();
    const hours = screen.getByRole('table', { name: t('device.live.perHour') });
    expect(within(hours).getByRole('row', { name: /09:00\s*6/ })).toBeInTheDocument();
    const refusals = screen.getByRole('table', { name: t('device.live.refusals') });
    expect(within(refusals).getByRole('row', { name: /The accreditation has no group\s*2/ })).toBeInTheDocument();
    const parks = screen.getByRole('table', { name: t('device.live.carParks') });
    expect(within(parks).getByRole('row', { name: /P1\s*7\s*10/ })).toBeInTheDocument();
    expect(
      within(parks).getByRole('row', { name: new RegExp(`Staff\\s*2\\s*${t('device.live.unlimited')}`) }),
    ).toBeInTheDocument();
    expect(LIVE_REFRESH_MS).toBeLessThanOrEqual(10_000);
    // the next read (refetchInterval) updates the numbers
    expect(reads).toBe(1);
    await act(() => vi.advanceTimersByTimeAsync(LIVE_REFRESH_MS));
    expect(await within(inside).findByRole('row', { name: /Hall\s*4/ })).toBeInTheDocument();
    vi.useRealTimers();
    expect(api.calls.filter((c) => c.path.startsWith('report/live')).length).toBeGreaterThanOrEqual(2);
  });
});
