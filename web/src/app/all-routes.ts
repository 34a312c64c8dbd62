import type { RouteObject } from 'react-router';
import { privateRoutes } from './private-routes';
import { publicRoutes } from './router';

/** Every route at once, as the browser router has them after the private part is loaded (for tests). */
export const appRoutes: RouteObject[] = [...publicRoutes, ...privateRoutes];
