import { Outlet, type RouteObject } from 'react-router';
import { RequireRight } from '../../components/require-right';
import { ZoneDetailPage } from './zone-detail-page';
import { ZoneListPage } from './zone-list-page';

/** `/zone`, `/zone/create`, `/zone/detail/:id` (spec §2), gated by the zone rights (spec §6). */
export const zoneRoutes: RouteObject[] = [
  {
    path: 'zone',
    handle: { crumb: 'menu.zones' },
    element: <Outlet />,
    children: [
      {
        index: true,
        element: (
          <RequireRight rights={[['zone', 'get']]}>
            <ZoneListPage />
          </RequireRight>
        ),
      },
      {
        path: 'create',
        handle: { crumb: 'zone.create' },
        element: (
          <RequireRight rights={[['zone', 'create']]}>
            <ZoneDetailPage />
          </RequireRight>
        ),
      },
      {
        path: 'detail/:id',
        handle: { crumb: 'zone.detail' },
        element: (
          <RequireRight rights={[['zone', 'get']]}>
            <ZoneDetailPage />
          </RequireRight>
        ),
      },
    ],
  },
];
