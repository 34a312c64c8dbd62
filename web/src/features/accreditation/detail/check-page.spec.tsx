import { act, screen, waitFor } from '@testing-library/react';
import { Outlet, type RouteObject } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CAMERA_STORAGE } from '../../../components/camera';
import { jsonResponse, t } from '../../../testing/render';
import { mockAdminApi, renderWithSession } from '../../../testing/session';
import { SCAN_DELAY_MS } from './camera-scanner';
import { accreditationCheckRoutes } from './routes';
import { accreditationRow } from '../../../testing/fixtures';

/** A stand-in for @zxing/browser's reader: the test plays the codes it "reads". */
const zxing = vi.hoisted(() => {
  const state = {
    options: [] as unknown[],
    streams: [] as unknown[],
    read: null as null | ((text: string) => void),
    stops: 0,
  };
  return state;
});
vi.mock('@zxing/browser', () => {
  class BrowserMultiFormatReader {
    constructor(_hints: unknown, options: unknown) {
      zxing.options.push(options);
    }
    async decodeFromStream(
      stream: unknown,
      _video: unknown,
      callback: (result: { getText: () => string } | undefined) => void,
    ) {
      zxing.streams.push(stream);
      zxing.read = (text) => callback({ getText: () => text });
      return {
        stop: () => {
          zxing.stops++;
        },
      };
    }
  }
  return { BrowserMultiFormatReader };
});

const track = { stop: vi.fn(), getSettings: () => ({ deviceId: 'desk' }) };
const stream = { getTracks: () => [track], getVideoTracks: () => [track] };

const routes: RouteObject[] = [
  {
    path: 'accreditation',
    element: <Outlet />,
    children: [{ path: 'check', element: <Outlet />, children: accreditationCheckRoutes }],
  },
];

const found = accreditationRow(55, {
  customId: 3,
  firstname: 'Jana',
  lastname: 'Nováková',
  email: 'jana@example.com',
  bc: 'ABC123',
  dateCreate: '2026-04-01T10:00:00.000Z',
});

beforeEach(() => {
  zxing.options.length = 0;
  zxing.streams.length = 0;
  zxing.read = null;
  Object.defineProperty(navigator, 'mediaDevices', {
    configurable: true,
    value: {
      getUserMedia: vi.fn(async () => stream),
      enumerateDevices: vi.fn(async () => [
        { kind: 'videoinput', deviceId: 'desk', label: 'Desk camera' },
        { kind: 'videoinput', deviceId: 'door', label: 'Door camera' },
      ]),
    },
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  Reflect.deleteProperty(navigator, 'mediaDevices');
});

describe('checking a code with the camera', () => {
  it('scans with the camera when switched on (100 ms between attempts) and opens what it reads', async () => {
    const { calls } = mockAdminApi({ 'GET user/check/ABC123': found });
    const { user, router } = renderWithSession(routes, '/accreditation/check');
    const toggle = await screen.findByRole('switch', { name: t('scanner.camera') });
    expect(toggle).not.toBeChecked();
    expect(navigator.mediaDevices.getUserMedia).not.toHaveBeenCalled();

    await user.click(toggle);
    await waitFor(() => expect(zxing.read).not.toBeNull());
    expect(zxing.options).toEqual([{ delayBetweenScanAttempts: SCAN_DELAY_MS }]);
    expect(SCAN_DELAY_MS).toBe(100);
    expect(zxing.streams).toEqual([stream]);
    expect(window.localStorage.getItem(CAMERA_STORAGE.scanEnabled)).toBe('1');
    expect(await screen.findByRole('combobox', { name: t('webcam.camera') })).toHaveValue('Desk camera');

    act(() => zxing.read?.('ABC123'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/accreditation/check/ABC123'));
    expect(calls.filter((c) => c.path === 'user/check/ABC123').length).toBeGreaterThanOrEqual(1);
    // Leaving the page releases the camera.
    await waitFor(() => expect(track.stop).toHaveBeenCalled());
    expect(zxing.stops).toBeGreaterThan(0);
  });

  it('reports a read code that is not found once, and keeps scanning and the typed path working', async () => {
    window.localStorage.setItem(CAMERA_STORAGE.scanEnabled, '1');
    const { calls } = mockAdminApi({
      'GET user/check/NOPE': jsonResponse({ error: { code: 'BC_NOT_EXIST', message: 'not found' } }, 404),
      'GET user/check/ABC123': found,
    });
    const { user, router } = renderWithSession(routes, '/accreditation/check');
    // The remembered 'camera enabled' state: scanning starts at once.
    expect(await screen.findByRole('switch', { name: t('scanner.camera') })).toBeChecked();
    await waitFor(() => expect(zxing.read).not.toBeNull());

    act(() => zxing.read?.('NOPE'));
    expect(await screen.findByText(t('accreditationDetail.bcNotExist', { code: 'NOPE' }))).toBeInTheDocument();
    // The same code still in front of the camera is not checked again and again.
    act(() => zxing.read?.('NOPE'));
    act(() => zxing.read?.('NOPE'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(calls.filter((c) => c.path === 'user/check/NOPE')).toHaveLength(1);
    expect(router.state.location.pathname).toBe('/accreditation/check');

    // The keyboard-wedge path next to the camera.
    const input = screen.getByLabelText(t('accreditationDetail.code'));
    await user.type(input, 'ABC123{Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/accreditation/check/ABC123'));
  });

  it('switched off, it stops the camera and forgets the setting', async () => {
    window.localStorage.setItem(CAMERA_STORAGE.scanEnabled, '1');
    mockAdminApi({});
    const { user } = renderWithSession(routes, '/accreditation/check');
    await waitFor(() => expect(zxing.read).not.toBeNull());
    track.stop.mockClear();
    await user.click(screen.getByRole('switch', { name: t('scanner.camera') }));
    await waitFor(() => expect(track.stop).toHaveBeenCalled());
    expect(screen.queryByLabelText(t('scanner.preview'))).not.toBeInTheDocument();
    expect(window.localStorage.getItem(CAMERA_STORAGE.scanEnabled)).toBeNull();
  });

  it('explains a refused camera permission', async () => {
    (navigator.mediaDevices.getUserMedia as ReturnType<typeof vi.fn>).mockRejectedValue(
      new DOMException('denied', 'NotAllowedError'),
    );
    mockAdminApi({});
    const { user } = renderWithSession(routes, '/accreditation/check');
    await user.click(await screen.findByRole('switch', { name: t('scanner.camera') }));
    expect(await screen.findByRole('alert')).toHaveTextContent(t('webcam.denied'));
  });
});
