import { Outlet, type RouteObject } from 'react-router';
import { RequireRight } from '../../components/require-right';
import { DeviceDetailPage } from './device-detail-page';
import { DeviceListPage } from './device-list-page';
import { DeviceSettingsPage } from './device-settings-page';
import { LivePage } from './live-page';
import { ReportPage } from './report-page';
import { RulesDetailPage } from './rules-detail-page';
import { RulesListPage } from './rules-list-page';

/**
 * `/device`, `/device/detail/:id`, `/device/settings`, `/device/rules[/create|/detail/:id]`,
 * `/device/report[/entrance]` (spec §2) and `/device/live`, gated by the rights of spec §6.
 */
export const deviceRoutes: RouteObject[] = [
  {
    path: 'device',
    handle: { crumb: 'menu.devices' },
    element: <Outlet />,
    children: [
      {
        index: true,
        handle: { crumb: 'menu.deviceList' },
        element: (
          <RequireRight rights={[['device', 'getDevice']]}>
            <DeviceListPage />
          </RequireRight>
        ),
      },
      {
        path: 'detail/:id',
        handle: { crumb: 'device.detail' },
        element: (
          <RequireRight rights={[['device', 'getDevice']]}>
            <DeviceDetailPage />
          </RequireRight>
        ),
      },
      {
        path: 'settings',
        handle: { crumb: 'menu.deviceSettings' },
        element: (
          <RequireRight rights={[['device', 'getDeviceKey']]}>
            <DeviceSettingsPage />
          </RequireRight>
        ),
      },
      {
        path: 'rules',
        handle: { crumb: 'menu.deviceRules' },
        element: <Outlet />,
        children: [
          {
            index: true,
            element: (
              <RequireRight rights={[['deviceTemplate', 'get']]}>
                <RulesListPage />
              </RequireRight>
            ),
          },
          {
            path: 'create',
            handle: { crumb: 'device.rules.create' },
            element: (
              <RequireRight rights={[['deviceTemplate', 'create']]}>
                <RulesDetailPage />
              </RequireRight>
            ),
          },
          {
            path: 'detail/:id',
            handle: { crumb: 'device.rules.detail' },
            element: (
              <RequireRight rights={[['deviceTemplate', 'get']]}>
                <RulesDetailPage />
              </RequireRight>
            ),
          },
        ],
      },
      {
        path: 'report',
        handle: { crumb: 'menu.deviceReports' },
        element: (
          <RequireRight rights={[['report', 'getReport']]}>
            <Outlet />
          </RequireRight>
        ),
        children: [
          { index: true, element: <ReportPage /> },
          { path: 'entrance', handle: { crumb: 'device.report.entranceTab' }, element: <ReportPage /> },
        ],
      },
      {
        path: 'live',
        handle: { crumb: 'menu.deviceLive' },
        element: (
          <RequireRight rights={[['report', 'getReport']]}>
            <LivePage />
          </RequireRight>
        ),
      },
    ],
  },
];
