import { buildRights, type DeviceDto, type Session } from '@accredo/domain';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS } from '../../api/storage';
import { bodyOf, mockAdminApi } from '../../testing/mock-api';
import { t } from '../../testing/render';
import { renderWithSession, testSession } from '../../testing/session';
import { deviceRoutes } from './routes';

const name = (cs: string) => ({ cs, sk: '', en: '', de: '' });
const actions = [{ id: 1, name: name('Festival') }];
const template = {
  id: 5,
  name: 'Main gate',
  actionId: 1,
  zoneId: null,
  data: { mode: 1, rules: [], globalRule: null },
};

const device = (id: number, patch: Partial<DeviceDto> = {}): DeviceDto => ({
  id,
  name: `Gate ${id}`,
  uid: `UID-${id}`,
  deviceTemplateId: null,
  deviceTemplate: null,
  paired: true,
  pairedAt: '2026-11-20T08:00:00.000Z',
  lastSeenAt: '2026-11-25T09:30:00.000Z',
  online: false,
  appVersion: null,
  createdAt: '2026-11-20T08:00:00.000Z',
  ...patch,
});

const limited = (grant: [string, string][]): Session => ({
  ...testSession(),
  superuser: false,
  rights: buildRights(([page, action]) => grant.some(([p, a]) => p === page && a === action)),
});

beforeEach(() => window.localStorage.setItem(STORAGE_KEYS.adminToken, 'tok'));
afterEach(() => vi.unstubAllGlobals());

describe('devices list and detail', () => {
  it('lists devices with template, state and app version; a device is opened for editing', async () => {
    const api = mockAdminApi({
      'GET action': actions,
      'GET device-template': [template],
      'GET device': [
        device(1, {
          online: true,
          appVersion: '2.4.1',
          deviceTemplateId: 5,
          deviceTemplate: { id: 5, name: 'Main gate', actionId: 1 },
        }),
        device(2, { paired: false, lastSeenAt: null }),
      ],
      'GET device/1': device(1, { deviceTemplateId: 5, deviceTemplate: { id: 5, name: 'Main gate', actionId: 1 } }),
      'PUT device/1': (body: Record<string, unknown>) =>
        device(1, { ...body, deviceTemplate: null } as Partial<DeviceDto>),
    });
    const { user, router } = renderWithSession(deviceRoutes, '/device');
    const row1 = await screen.findByRole('row', { name: /Gate 1/ });
    expect(within(row1).getByText('UID-1')).toBeInTheDocument();
    expect(within(row1).getByText(t('device.online'))).toBeInTheDocument();
    expect(within(row1).getByText('2.4.1')).toBeInTheDocument();
    expect(await within(row1).findByText('Main gate (Festival)')).toBeInTheDocument();
    const row2 = screen.getByRole('row', { name: /Gate 2/ });
    expect(within(row2).getByText(t('device.notPaired'))).toBeInTheDocument();
    expect(within(row2).getByText(t('device.noTemplate'))).toBeInTheDocument();

    await user.click(within(row1).getByRole('link', { name: `${t('basics.edit')}: Gate 1` }));
    expect(router.state.location.pathname).toBe('/device/detail/1');
    const uid = await screen.findByLabelText(new RegExp(t('device.uid')));
    await user.clear(uid);
    await user.click(screen.getByRole('button', { name: t('basics.save') }));
    expect(await screen.findByText(t('basics.requireField'))).toBeInTheDocument();
    expect(api.calls.some((c) => c.method === 'PUT')).toBe(false);
    await user.type(uid, 'NEW-UID');
    await user.click(screen.getByRole('button', { name: t('basics.save') }));
    await waitFor(() =>
      expect(bodyOf(api.calls, 'PUT', 'device/1')).toEqual({ name: 'Gate 1', uid: 'NEW-UID', deviceTemplateId: 5 }),
    );
  });

  it('deletes a device after a confirmation that it is unpaired', async () => {
    const api = mockAdminApi({
      'GET action': actions,
      'GET device-template': [template],
      'GET device': [],
      'GET device/2': device(2),
      'DELETE device/2': { deleted: true },
    });
    const { user, router } = renderWithSession(deviceRoutes, '/device/detail/2');
    await user.click(await screen.findByRole('button', { name: t('device.delete') }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(t('device.deleteText', { name: 'Gate 2' }))).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: t('device.delete') }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/device'));
    expect(api.calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual(['device/2']);
  });

  it('is read-only without updateDevice: no save, no delete', async () => {
    mockAdminApi({ 'GET device/2': device(2), 'GET device': [] });
    renderWithSession(deviceRoutes, '/device/detail/2', limited([['device', 'getDevice']]));
    expect(await screen.findByText(t('basics.readOnly'))).toBeInTheDocument();
    expect(screen.getByLabelText(new RegExp(t('device.uid')))).toBeDisabled();
    expect(screen.queryByRole('button', { name: t('device.delete') })).not.toBeInTheDocument();
  });

  it('sends the user back to the list when a device cannot be loaded (spec §8)', async () => {
    mockAdminApi({ 'GET device': [] });
    const { router } = renderWithSession(deviceRoutes, '/device/detail/99');
    await waitFor(() => expect(router.state.location.pathname).toBe('/device'));
  });
});

describe('device settings', () => {
  const key = { bc: 'ACCREDO-PAIR.1.abcdEFGH12345678', bcClear: 'ACCREDO-CLEAR.1.0123456789abcdef01234567' };
  const rotated = { bc: 'ACCREDO-PAIR.1.zzzzYYYY00000000', bcClear: 'ACCREDO-CLEAR.1.ffffffffffffffffffffffff' };

  it('shows both codes as QR images with their text, and rotates the key after a warning', async () => {
    const api = mockAdminApi({ 'GET device/key': key, 'POST device/key/rotate': rotated });
    const { user } = renderWithSession(deviceRoutes, '/device/settings');
    const pair = await screen.findByTestId('pair-code');
    expect(within(pair).getByText(key.bc)).toBeInTheDocument();
    expect((await within(pair).findByRole('img', { name: key.bc })).tagName.toLowerCase()).toBe('svg');
    const clear = screen.getByTestId('clear-code');
    expect(within(clear).getByText(key.bcClear)).toBeInTheDocument();
    // where the browser gate screen is, for the admin who sets it up
    expect(screen.getByText(t('device.gateScreen'), { exact: false })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: `${window.location.origin}/gate` })).toHaveAttribute('href', '/gate');
    expect(await within(clear).findByRole('img', { name: key.bcClear })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: t('device.rotate') }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(t('device.rotateText'))).toBeInTheDocument();
    // cancelling rotates nothing
    await user.click(within(dialog).getByRole('button', { name: t('basics.cancel') }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.calls.some((c) => c.path === 'device/key/rotate')).toBe(false);

    await user.click(screen.getByRole('button', { name: t('device.rotate') }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: t('device.rotate') }));
    expect(await within(screen.getByTestId('pair-code')).findByText(rotated.bc)).toBeInTheDocument();
    expect(within(screen.getByTestId('clear-code')).getByText(rotated.bcClear)).toBeInTheDocument();
    expect(api.calls.filter((c) => c.path === 'device/key/rotate')).toHaveLength(1);
  });

  it('offers no rotation without updateDevice, and refuses the page without getDeviceKey', async () => {
    mockAdminApi({ 'GET device/key': key });
    renderWithSession(deviceRoutes, '/device/settings', limited([['device', 'getDeviceKey']]));
    expect(await screen.findByText(key.bc)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: t('device.rotate') })).not.toBeInTheDocument();
  });

  it('is forbidden without getDeviceKey', async () => {
    mockAdminApi({ 'GET device/key': key });
    renderWithSession(deviceRoutes, '/device/settings', limited([['device', 'getDevice']]));
    expect(await screen.findByText(t('errors.FORBIDDEN'))).toBeInTheDocument();
    expect(screen.queryByText(key.bc)).not.toBeInTheDocument();
  });
});
