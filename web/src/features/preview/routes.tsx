import type { RouteObject } from 'react-router';
import { OnlineLayout } from '../../app/layouts/online-layout';
import { RouteError } from '../not-found/route-error';
import { PreviewPage } from './preview-page';

/** `/preview/:subjectKey/cid/:code` (spec §2): public, outside the admin session. */
export const previewRoutes: RouteObject[] = [
  {
    path: 'preview/:subjectKey/cid/:code',
    element: <OnlineLayout />,
    errorElement: <RouteError homePath="/" />,
    children: [{ index: true, element: <PreviewPage /> }],
  },
];
