import type { RouteObject } from 'react-router';
import { RequireRight } from '../../../components/require-right';
import { AccreditationCreatePage, AccreditationDetailPage } from './accreditation-detail-page';
import { AccreditationCheckDetailPage, AccreditationCheckPage } from './check-page';

/** Children of `/accreditation`: `create` and `detail/:id` (spec §2), each behind its right (spec §6). */
export const accreditationDetailRoutes: RouteObject[] = [
  {
    path: 'create',
    handle: { crumb: 'accreditationDetail.create' },
    element: (
      <RequireRight rights={[['user', 'createUser']]}>
        <AccreditationCreatePage />
      </RequireRight>
    ),
  },
  {
    path: 'detail/:id',
    handle: { crumb: 'accreditationDetail.detail' },
    element: (
      <RequireRight rights={[['user', 'getUser']]}>
        <AccreditationDetailPage />
      </RequireRight>
    ),
  },
];

/** Children of `/accreditation/check`: the code input and the accreditation found by its code (spec §2). */
export const accreditationCheckRoutes: RouteObject[] = [
  {
    index: true,
    element: (
      <RequireRight rights={[['user', 'checkUser']]}>
        <AccreditationCheckPage />
      </RequireRight>
    ),
  },
  {
    path: ':bc',
    handle: { crumb: 'accreditationDetail.checkDetail' },
    element: (
      <RequireRight rights={[['user', 'checkUser']]}>
        <AccreditationCheckDetailPage />
      </RequireRight>
    ),
  },
];
