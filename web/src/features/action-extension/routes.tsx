import type { RightPair } from '@accredo/domain';
import type { ReactNode } from 'react';
import { Outlet, type RouteObject } from 'react-router';
import { RequireRight } from '../../components/require-right';
import { ExtensionActionListPage } from './action-list-page';
import { ExtensionEditPage } from './extension-edit-page';
import { ExtensionOverviewPage } from './overview-page';
import { ExtensionReportPage } from './report-page';
import { type ExtensionSlug, RequireExtension } from './shared';
import { ExtensionUsersPage } from './users-page';

const gated = (rights: RightPair[], element: ReactNode, fixed?: ExtensionSlug) => (
  <RequireRight rights={rights}>
    <RequireExtension fixed={fixed}>{element}</RequireExtension>
  </RequireRight>
);

const typeRoutes = (slug: ExtensionSlug): RouteObject => ({
  path: slug,
  handle: { crumb: `extension.${slug}.title` },
  element: <Outlet />,
  children: [
    { index: true, element: gated([['actionExtension', 'get']], <ExtensionActionListPage slug={slug} />, slug) },
    {
      path: 'detail/:actionId',
      handle: { crumb: 'extension.editItems' },
      element: gated([['actionExtension', 'get']], <ExtensionEditPage slug={slug} />, slug),
    },
    {
      path: ':actionId/users',
      handle: { crumb: 'extension.users.title' },
      element: gated([['actionExtension', 'getUserExtension']], <ExtensionUsersPage slug={slug} />, slug),
    },
  ],
});

/**
 * `/action-extension` and its screens (spec §2), gated by the actionExtension rights and by the
 * subject's extensions (spec §6 extension gating).
 */
export const actionExtensionRoutes: RouteObject[] = [
  {
    path: 'action-extension',
    handle: { crumb: 'menu.actionExtension' },
    element: <Outlet />,
    children: [
      {
        index: true,
        element: (
          <RequireRight rights={[['actionExtension', 'get']]}>
            <ExtensionOverviewPage />
          </RequireRight>
        ),
      },
      typeRoutes('meal'),
      typeRoutes('parking'),
      {
        path: 'report',
        handle: { crumb: 'extension.report.title' },
        element: (
          <RequireRight rights={[['actionExtension', 'getActionExtensionReport']]}>
            <ExtensionReportPage />
          </RequireRight>
        ),
      },
    ],
  },
];
