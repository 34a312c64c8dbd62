import type { RouteObject } from 'react-router';
import { RouteError } from '../not-found/route-error';
import { GatePage } from './gate-page';

/** `/gate`: the browser gate screen, public (it authenticates with its own device token). */
export const gateRoutes: RouteObject[] = [
  { path: 'gate', element: <GatePage />, errorElement: <RouteError homePath="/gate" /> },
];
