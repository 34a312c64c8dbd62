import { Outlet, type RouteObject } from 'react-router';
import { RequireRight } from '../../components/require-right';
import { GroupDetailPage } from './group-detail-page';
import { GroupListPage } from './group-list-page';

/** `/groups`, `/groups/create`, `/groups/detail/:id` (spec §2), gated by the groups rights (spec §6). */
export const groupsRoutes: RouteObject[] = [
  {
    path: 'groups',
    handle: { crumb: 'menu.groups' },
    element: <Outlet />,
    children: [
      {
        index: true,
        element: (
          <RequireRight rights={[['groups', 'get']]}>
            <GroupListPage />
          </RequireRight>
        ),
      },
      {
        path: 'create',
        handle: { crumb: 'groups.create' },
        element: (
          <RequireRight rights={[['groups', 'create']]}>
            <GroupDetailPage />
          </RequireRight>
        ),
      },
      {
        path: 'detail/:id',
        handle: { crumb: 'groups.detail' },
        element: (
          <RequireRight rights={[['groups', 'get']]}>
            <GroupDetailPage />
          </RequireRight>
        ),
      },
    ],
  },
];
