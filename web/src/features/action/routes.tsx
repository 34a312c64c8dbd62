import { Outlet, type RouteObject } from 'react-router';
import { RequireRight } from '../../components/require-right';
import { ActionDetailPage } from './action-detail-page';
import { ActionListPage } from './action-list-page';

/** `/action`, `/action/create`, `/action/detail/:id` (spec §2), each behind its right (spec §6). */
export const actionRoutes: RouteObject[] = [
  {
    path: 'action',
    handle: { crumb: 'menu.actionList' },
    element: <Outlet />,
    children: [
      {
        index: true,
        element: (
          <RequireRight rights={[['action', 'get']]}>
            <ActionListPage />
          </RequireRight>
        ),
      },
      {
        path: 'create',
        handle: { crumb: 'action.create' },
        element: (
          <RequireRight rights={[['action', 'create']]}>
            <ActionDetailPage />
          </RequireRight>
        ),
      },
      {
        path: 'detail/:id',
        handle: { crumb: 'action.detail' },
        element: (
          <RequireRight rights={[['action', 'get']]}>
            <ActionDetailPage />
          </RequireRight>
        ),
      },
    ],
  },
];
