import type { RouteObject } from 'react-router';
import { RequireRight } from '../../../components/require-right';
import { AccreditationImportPage } from './accreditation-import-page';

/** `/accreditation/import` (spec §2): the spreadsheet and photo import; wired as a child of `accreditation`. */
export const accreditationImportRoute: RouteObject = {
  path: 'import',
  handle: { crumb: 'accreditationImport.title' },
  element: (
    <RequireRight
      rights={[
        ['userImport', 'importUser'],
        ['imageImport', 'importImage'],
      ]}
    >
      <AccreditationImportPage />
    </RequireRight>
  ),
};
