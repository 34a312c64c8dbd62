import { afterEach, describe, it, vi } from 'vitest';
import { expectDeleteGoesBack, expectDeleteRefusal } from '../../testing/delete-record';
import { galleryRoutes } from './routes';

const image = {
  id: 9,
  name: 'Logo',
  type: 3,
  size: 2048,
  width: 40,
  height: 20,
  mimeType: 'image/png',
  version: 1,
  path: '/api/file/9.png',
  dateCreate: '2026-01-01T10:00:00.000Z',
};
const api = { 'GET image/9': image, 'POST image/all': { paged: { data: [], max: 0 } } };

afterEach(() => vi.unstubAllGlobals());

describe('gallery image detail: Delete (issue 15)', () => {
  it('asks, deletes and goes back to the gallery', () =>
    expectDeleteGoesBack({
      routes: galleryRoutes,
      path: '/gallery/detail/9',
      api,
      deletePath: 'image/9',
      listPath: '/gallery',
    }));

  it('says where the image is still used and stays', () =>
    expectDeleteRefusal({
      routes: galleryRoutes,
      path: '/gallery/detail/9',
      api,
      deletePath: 'image/9',
      code: 'IMAGE_IN_USE',
      details: { count: 2, names: 'Visitors', usedBy: ['Visitors'] },
    }));
});
