import { Outlet, type RouteObject } from 'react-router';
import { RequireRight } from '../../components/require-right';
import { WebChannelDetailPage } from './web-channel-detail-page';
import { WebChannelListPage } from './web-channel-list-page';

/** `/web-channel`, `/web-channel/create`, `/web-channel/detail/:id` (spec §2), gated by the webChannel rights (spec §6). */
export const webChannelRoutes: RouteObject[] = [
  {
    path: 'web-channel',
    handle: { crumb: 'menu.webChannels' },
    element: <Outlet />,
    children: [
      {
        index: true,
        element: (
          <RequireRight rights={[['webChannel', 'get']]}>
            <WebChannelListPage />
          </RequireRight>
        ),
      },
      {
        path: 'create',
        handle: { crumb: 'webChannel.create' },
        element: (
          <RequireRight rights={[['webChannel', 'create']]}>
            <WebChannelDetailPage />
          </RequireRight>
        ),
      },
      {
        path: 'detail/:id',
        handle: { crumb: 'webChannel.detail' },
        element: (
          <RequireRight rights={[['webChannel', 'get']]}>
            <WebChannelDetailPage />
          </RequireRight>
        ),
      },
    ],
  },
];
