import type { RouteObject } from 'react-router';
import { OnlineLayout } from '../../app/layouts/online-layout';
import { RouteError } from '../not-found/route-error';

/**
 * `/app/online` and `/app/online/:channelKey` (spec §2): public, outside the admin session. The pages
 * are a chunk of their own (issue 15, a light first load): the login page does not load the form.
 */
export const onlineRoutes: RouteObject[] = [
  {
    path: 'app/online',
    element: <OnlineLayout />,
    errorElement: <RouteError homePath="/app/online" />,
    children: [
      { index: true, lazy: async () => ({ Component: (await import('./online-page')).ChannelCodeEntry }) },
      { path: ':channelKey', lazy: async () => ({ Component: (await import('./online-page')).OnlinePage }) },
    ],
  },
];
