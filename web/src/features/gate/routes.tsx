import type { RouteObject } from 'react-router';
import { RouteError } from '../not-found/route-error';

/**
 * `/gate`: the browser gate screen, public (it authenticates with its own device token); its own
 * chunk (the camera reader and the decision engine), loaded when a gate opens.
 */
export const gateRoutes: RouteObject[] = [
  {
    path: 'gate',
    lazy: async () => ({ Component: (await import('./gate-page')).GatePage }),
    errorElement: <RouteError homePath="/gate" />,
  },
  /** `/gate/settings`: an Accredo Station's settings (issue 12); served by the server it says it needs one */
  {
    path: 'gate/settings',
    lazy: async () => ({ Component: (await import('./station-settings')).StationSettingsPage }),
    errorElement: <RouteError homePath="/gate" />,
  },
];
