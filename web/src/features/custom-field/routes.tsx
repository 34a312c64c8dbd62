import { Outlet, type RouteObject } from 'react-router';
import { RequireRight } from '../../components/require-right';
import { CustomFieldDetailPage } from './custom-field-detail-page';
import { CustomFieldListPage } from './custom-field-list-page';

/** `/custom-field`, `/custom-field/create`, `/custom-field/detail/:id` (spec §2), behind their rights. */
export const customFieldRoutes: RouteObject[] = [
  {
    path: 'custom-field',
    handle: { crumb: 'menu.customFields' },
    element: <Outlet />,
    children: [
      {
        index: true,
        element: (
          <RequireRight rights={[['customField', 'get']]}>
            <CustomFieldListPage />
          </RequireRight>
        ),
      },
      {
        path: 'create',
        handle: { crumb: 'customField.create' },
        element: (
          <RequireRight rights={[['customField', 'create']]}>
            <CustomFieldDetailPage />
          </RequireRight>
        ),
      },
      {
        path: 'detail/:id',
        handle: { crumb: 'customField.detail' },
        element: (
          <RequireRight rights={[['customField', 'get']]}>
            <CustomFieldDetailPage />
          </RequireRight>
        ),
      },
    ],
  },
];
