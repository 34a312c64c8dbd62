import type { RouteObject } from 'react-router';
import { RouteError } from '../not-found/route-error';
import { GatePage } from './gate-page';
import { StationSettingsPage } from './station-settings';

/** `/gate`: the browser gate screen, public (it authenticates with its own device token). */
export const gateRoutes: RouteObject[] = [
  { path: 'gate', element: <GatePage />, errorElement: <RouteError homePath="/gate" /> },
  /** `/gate/settings`: an Accredo Station's settings (issue 12); served by the server it says it needs one */
  { path: 'gate/settings', element: <StationSettingsPage />, errorElement: <RouteError homePath="/gate" /> },
];
