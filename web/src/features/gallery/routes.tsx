import { Outlet, type RouteObject } from 'react-router';
import { RequireRight } from '../../components/require-right';
import { GalleryAddPage } from './gallery-add-page';
import { GalleryDetailPage } from './gallery-detail-page';
import { GalleryListPage } from './gallery-list-page';

/** `/gallery`, `/gallery/add`, `/gallery/detail/:id` (spec §2), gated by the image rights (spec §6). */
export const galleryRoutes: RouteObject[] = [
  {
    path: 'gallery',
    handle: { crumb: 'menu.gallery' },
    element: <Outlet />,
    children: [
      {
        index: true,
        element: (
          <RequireRight rights={[['image', 'get']]}>
            <GalleryListPage />
          </RequireRight>
        ),
      },
      {
        path: 'add',
        handle: { crumb: 'gallery.add' },
        element: (
          <RequireRight rights={[['image', 'create']]}>
            <GalleryAddPage />
          </RequireRight>
        ),
      },
      {
        path: 'detail/:id',
        handle: { crumb: 'gallery.detail' },
        element: (
          <RequireRight rights={[['image', 'get']]}>
            <GalleryDetailPage />
          </RequireRight>
        ),
      },
    ],
  },
];
