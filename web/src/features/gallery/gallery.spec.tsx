import { buildRights, PHOTO_MAX_BYTES, type Session } from '@accredo/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Outlet } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS } from '../../api/storage';
import { AdminSessionProvider } from '../../app/admin-session';
import { jsonResponse, renderRoutes, t } from '../../testing/render';
import { galleryRoutes } from './routes';
import { mockAdminApi } from '../../testing/mock-api';

const session: Session = {
  token: 'tok',
  rights: buildRights(true),
  superuser: false,
  manageuser: false,
  subject: { id: 1, name: 'Demo', key: 'demo', multiLanguage: false, extensions: [], timeZone: 'Europe/Prague' },
};

const image = (id: number, patch: Record<string, unknown> = {}) => ({
  id,
  name: `Image ${id}`,
  type: 3,
  size: 2048,
  width: 40,
  height: 20,
  mimeType: 'image/png',
  version: 1,
  path: `/api/file/${id}.png`,
  dateCreate: '2026-01-01T10:00:00.000Z',
  ...patch,
});

const PNG_HEAD = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52];

function setup(path: string) {
  const utils = renderRoutes(
    [
      {
        path: '/',
        element: (
          <AdminSessionProvider session={session}>
            <Outlet />
          </AdminSessionProvider>
        ),
        children: galleryRoutes,
      },
    ],
    [path],
  );
  // The file input's accept attribute would silently drop a wrong file; the form must say why.
  return { ...utils, user: userEvent.setup({ applyAccept: false }) };
}

const posts = (fetchMock: ReturnType<typeof mockAdminApi>['fetchMock'], path: string) =>
  fetchMock.mock.calls
    .filter(([url, init]) => url === `/api/admin/v1/${path}` && (init as RequestInit | undefined)?.method === 'POST')
    .map(([, init]) => JSON.parse((init as RequestInit).body as string));

const fileInput = (container: HTMLElement) => container.querySelector('input[type="file"]') as HTMLInputElement;

beforeEach(() => window.localStorage.setItem(STORAGE_KEYS.adminToken, 'tok'));
afterEach(() => vi.unstubAllGlobals());

describe('gallery add', () => {
  it('refuses a file over 2 MB before sending', async () => {
    const { fetchMock } = mockAdminApi({});
    const { user, container } = setup('/gallery/add');
    const big = new File([new Uint8Array(PHOTO_MAX_BYTES + 1)], 'big.png', { type: 'image/png' });
    await user.upload(fileInput(container), big);
    expect(await screen.findByText(t('photo.chooseToolTipOnline'))).toBeInTheDocument();
    // the name was taken from the file
    expect(screen.getByRole('textbox', { name: new RegExp(t('basics.name')) })).toHaveValue('big');
    await user.click(screen.getByRole('button', { name: t('basics.save') }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(posts(fetchMock, 'image')).toEqual([]);
  });

  it('refuses a file of another type, also a renamed one, before sending', async () => {
    const { fetchMock } = mockAdminApi({});
    const { user, container } = setup('/gallery/add');
    await user.upload(fileInput(container), new File(['hello'], 'notes.txt', { type: 'text/plain' }));
    expect(await screen.findByText(t('photo.invalidType'))).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: t('basics.save') }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(posts(fetchMock, 'image')).toEqual([]);

    // a text file named .png passes the name check but not the content check
    await user.upload(fileInput(container), new File(['plain text'], 'fake.png', { type: 'image/png' }));
    await waitFor(() => expect(screen.queryByText(t('photo.invalidType'))).not.toBeInTheDocument());
    await user.click(screen.getByRole('button', { name: t('basics.save') }));
    expect(await screen.findByText(t('photo.invalidType'))).toBeInTheDocument();
    expect(posts(fetchMock, 'image')).toEqual([]);
  });

  it('sends a good file as a data URL with type and name, then opens the editor', async () => {
    const { fetchMock } = mockAdminApi({
      'POST image': image(9, { name: 'Logo', type: 2 }),
      'GET image/9': image(9, { name: 'Logo', type: 2 }),
    });
    const { user, container, router } = setup('/gallery/add');
    await user.click(
      screen.getByLabelText(t('gallery.type'), { exact: false, selector: 'input:not([type="hidden"])' }),
    );
    await user.click(within(await screen.findByRole('listbox')).getByRole('option', { name: t('gallery.type2') }));
    await user.upload(fileInput(container), new File([new Uint8Array(PNG_HEAD)], 'logo.png', { type: 'image/png' }));
    const name = screen.getByRole('textbox', { name: new RegExp(t('basics.name')) });
    await user.clear(name);
    await user.type(name, 'Logo');
    await user.click(screen.getByRole('button', { name: t('basics.save') }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/gallery/detail/9'));
    const [body] = posts(fetchMock, 'image');
    expect(body).toMatchObject({ type: 2, name: 'Logo' });
    expect(body.baseData).toMatch(/^data:image\/png;base64,iVBORw0KGgo/);
    // the editor has replaced the add form (whose name field also says Logo until it unmounts)
    expect(await screen.findByRole('heading', { name: `${t('gallery.detail')}: Logo` })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: new RegExp(t('basics.name')) })).toHaveValue('Logo');
  });

  it('shows the server’s file error on the file input', async () => {
    mockAdminApi({
      'POST image': jsonResponse(
        {
          error: {
            code: 'VALIDATION_ERROR',
            message: 'invalid',
            details: { fields: [{ path: 'baseData', key: 'photo.invalidData' }] },
          },
        },
        400,
      ),
    });
    const { user, container } = setup('/gallery/add');
    await user.upload(fileInput(container), new File([new Uint8Array(PNG_HEAD)], 'logo.png', { type: 'image/png' }));
    await user.click(screen.getByRole('button', { name: t('basics.save') }));
    expect(await screen.findByText(t('photo.invalidData'))).toBeInTheDocument();
  });
});

describe('gallery list', () => {
  it('pages by 24, filters by type and searches by name after a pause', async () => {
    const { fetchMock } = mockAdminApi({
      'POST image/all': (body: { page: number; phrase: string }) => ({
        paged: {
          data: body.phrase === 'logo' ? [image(1, { name: 'logo big' })] : [image(2), image(3)],
          max: body.phrase === 'logo' ? 1 : 50,
        },
      }),
    });
    const { user } = setup('/gallery');
    // the card is named by its text; its picture says nothing more
    const card = await screen.findByRole('link', { name: /^Image 2\b/ });
    expect(card.querySelector('img')).toHaveAttribute('src', '/api/file/2.png');
    expect(posts(fetchMock, 'image/all')[0]).toEqual({ page: 1, pageSize: 24, type: null, phrase: '' });
    // 50 images in pages of 24
    expect(screen.getByRole('button', { name: t('basics.pageNumber', { page: 3 }) })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: t('basics.pageNumber', { page: 2 }) }));
    await waitFor(() => expect(posts(fetchMock, 'image/all').at(-1)).toMatchObject({ page: 2 }));

    await user.click(screen.getByLabelText(t('gallery.type'), { selector: 'input:not([type="hidden"])' }));
    await user.click(within(await screen.findByRole('listbox')).getByRole('option', { name: t('gallery.type1') }));
    await waitFor(() =>
      expect(posts(fetchMock, 'image/all').at(-1)).toEqual({ page: 1, pageSize: 24, type: 1, phrase: '' }),
    );

    const before = posts(fetchMock, 'image/all').length;
    await user.type(screen.getByRole('textbox', { name: t('gallery.search') }), 'logo');
    // nothing is sent while typing
    expect(posts(fetchMock, 'image/all')).toHaveLength(before);
    await waitFor(() => expect(posts(fetchMock, 'image/all').at(-1)).toMatchObject({ phrase: 'logo', type: 1 }), {
      timeout: 2000,
    });
    expect(posts(fetchMock, 'image/all')).toHaveLength(before + 1);
    expect(await screen.findByRole('link', { name: /^logo big/ })).toHaveAttribute('href', '/gallery/detail/1');
  });
});

describe('gallery editor', () => {
  const DATA_URL = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUg==';

  beforeEach(() => {
    // jsdom draws nothing: a fake 2D context and picture loading stand in for the browser's.
    const ctx = { drawImage: vi.fn(), translate: vi.fn(), rotate: vi.fn(), scale: vi.fn(), clearRect: vi.fn() };
    vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(ctx as unknown as CanvasRenderingContext2D);
    vi.spyOn(HTMLCanvasElement.prototype, 'toDataURL').mockReturnValue(DATA_URL);
    class FakeImage {
      width = 40;
      height = 20;
      onload: (() => void) | null = null;
      onerror: (() => void) | null = null;
      set src(_value: string) {
        setTimeout(() => this.onload?.(), 0);
      }
    }
    vi.stubGlobal('Image', FakeImage);
  });
  afterEach(() => vi.restoreAllMocks());

  it('rotates, crops and renames, saving the canvas as a new version', async () => {
    const { fetchMock } = mockAdminApi({
      'GET image/9': image(9),
      'PUT image/9': image(9, { name: 'Cropped', width: 10, height: 15, version: 2, path: '/api/file/v2.png' }),
    });
    const { user } = setup('/gallery/detail/9');
    const rotate = await screen.findByRole('button', { name: t('gallery.rotateRight') });
    await waitFor(() => expect(rotate).toBeEnabled());
    await user.click(rotate);
    expect(screen.getByText(/40×20 → 20×40/)).toBeInTheDocument();

    await user.type(screen.getByRole('textbox', { name: t('gallery.cropWidth') }), '10');
    // the height input now holds the whole height (40): replace it
    await user.tripleClick(screen.getByRole('textbox', { name: t('gallery.cropHeight') }));
    await user.keyboard('15');
    expect(screen.getByTestId('crop-selection')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: t('gallery.applyCrop') }));
    expect(screen.getByText(/40×20 → 10×15/)).toBeInTheDocument();

    const name = screen.getByRole('textbox', { name: new RegExp(t('basics.name')) });
    await user.clear(name);
    await user.type(name, 'Cropped');
    await user.click(screen.getByRole('button', { name: t('basics.save') }));
    await waitFor(() => expect(screen.getByText(`${t('gallery.version')}: 2`)).toBeInTheDocument());
    const put = fetchMock.mock.calls.find(([, init]) => (init as RequestInit | undefined)?.method === 'PUT');
    expect(JSON.parse((put as unknown as [string, RequestInit])[1].body as string)).toEqual({
      name: 'Cropped',
      data: DATA_URL,
    });
    expect(screen.queryByRole('button', { name: t('basics.save') })).not.toBeInTheDocument();
  });

  it('renames without sending the picture when it was not edited, and undo brings it back', async () => {
    const { fetchMock } = mockAdminApi({ 'GET image/9': image(9), 'PUT image/9': image(9, { name: 'Renamed' }) });
    const { user } = setup('/gallery/detail/9');
    const flipButton = await screen.findByRole('button', { name: t('gallery.flipHorizontal') });
    await waitFor(() => expect(flipButton).toBeEnabled());
    await user.click(flipButton);
    expect(screen.getByRole('button', { name: t('basics.save') })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: t('gallery.undo') }));
    expect(screen.queryByRole('button', { name: t('basics.save') })).not.toBeInTheDocument();

    await user.type(screen.getByRole('textbox', { name: new RegExp(t('basics.name')) }), '!');
    await user.click(screen.getByRole('button', { name: t('basics.save') }));
    await waitFor(() =>
      expect(fetchMock.mock.calls.some(([, init]) => (init as RequestInit | undefined)?.method === 'PUT')).toBe(true),
    );
    const put = fetchMock.mock.calls.find(([, init]) => (init as RequestInit | undefined)?.method === 'PUT');
    expect(JSON.parse((put as unknown as [string, RequestInit])[1].body as string)).toEqual({ name: 'Image 9!' });
  });
});
