import type { INestApplicationContext } from '@nestjs/common';
import type { RouteOptions } from 'fastify';
import { ACCESS_KEY, type Access } from '../../common/access.js';
import { type LeanHandler, takeOverRoute } from '../../common/lean-route.js';
import { OnlineController, onlineTokenOf, parseRegistration } from './online.controller.js';
import { OnlineService } from './online.service.js';

/** The public registration route that takes the lean path (issue 16 "a lean request path"). */
export const LEAN_REGISTRATION_ROUTE = { method: 'POST', url: '/api/online/v1/accreditation/:key' } as const;

/**
 * POST api/online/v1/accreditation/{key} without Nest's per-request pipeline (guard, pipe,
 * interceptors over rxjs, the exception zone), as the gate's scan and the lean admin routes do
 * (device/scan-route.ts, session/lean-admin.ts). The route stays declared on OnlineController
 * (OpenAPI, the route walk, its `@Public()` marking, checked at bind); Fastify's `onRoute` hook
 * swaps the handler Nest registers for this one, so Fastify's hooks (security headers, the JSON
 * body parser) and its error handler (ErrorFilter: the envelope in the caller's language) still
 * apply, and the answer is the same: the controller's pipe (`parseRegistration`: the one zod
 * schema, EMAIL_NOT_VALID), the token of `authorization-online`, `OnlineService.register`, and
 * `201 {data: …}`. ACCREDO_ONLINE_PATH=nest leaves Nest's handler in place (the bench measures both).
 */
export function leanOnlineRoute() {
  let handler: LeanHandler | null = null;
  return {
    onRoute(route: RouteOptions): void {
      takeOverRoute(route, [LEAN_REGISTRATION_ROUTE], () => handler);
    },
    /** Called with the created app, before `app.init()` registers the routes. */
    bind(app: INestApplicationContext): void {
      if (process.env.ACCREDO_ONLINE_PATH === 'nest') return;
      const access = Reflect.getMetadata(ACCESS_KEY, OnlineController.prototype.register) as Access | undefined;
      if (access?.kind !== 'public') throw new Error('lean registration route: its handler is not public');
      const online = app.get(OnlineService, { strict: false });
      handler = async (req, reply) => {
        const { key } = req.params as { key: string };
        const body = parseRegistration(req.body);
        const answer = await online.register(key, onlineTokenOf(req.headers), body);
        reply.code(201).header('content-type', 'application/json; charset=utf-8');
        return JSON.stringify({ data: answer });
      };
    },
  };
}
