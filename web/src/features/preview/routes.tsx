import type { RouteObject } from 'react-router';
import { OnlineLayout } from '../../app/layouts/online-layout';
import { RouteError } from '../not-found/route-error';

/** `/preview/:subjectKey/cid/:code` (spec §2): public, outside the admin session; a chunk of its own. */
export const previewRoutes: RouteObject[] = [
  {
    path: 'preview/:subjectKey/cid/:code',
    element: <OnlineLayout />,
    errorElement: <RouteError homePath="/" />,
    children: [{ index: true, lazy: async () => ({ Component: (await import('./preview-page')).PreviewPage }) }],
  },
];
