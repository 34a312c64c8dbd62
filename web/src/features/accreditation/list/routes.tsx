import type { RouteObject } from 'react-router';
import { RequireRight } from '../../../components/require-right';
import { AccreditationListPage } from './accreditation-list-page';

/** `/accreditation` (spec §2): the list; wired as the index route of `accreditation`. */
export const accreditationListRoute: RouteObject = {
  index: true,
  element: (
    <RequireRight rights={[['user', 'getUser']]}>
      <AccreditationListPage />
    </RequireRight>
  ),
};
