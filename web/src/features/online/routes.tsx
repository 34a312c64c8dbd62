import type { RouteObject } from 'react-router';
import { OnlineLayout } from '../../app/layouts/online-layout';
import { RouteError } from '../not-found/route-error';
import { ChannelCodeEntry, OnlinePage } from './online-page';

/** `/app/online` and `/app/online/:channelKey` (spec §2): public, outside the admin session. */
export const onlineRoutes: RouteObject[] = [
  {
    path: 'app/online',
    element: <OnlineLayout />,
    errorElement: <RouteError homePath="/app/online" />,
    children: [
      { index: true, element: <ChannelCodeEntry /> },
      { path: ':channelKey', element: <OnlinePage /> },
    ],
  },
];
