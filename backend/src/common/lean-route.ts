import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';

/** A route's handler on the lean path: Fastify's request and reply, no Nest pipeline. */
export type LeanHandler = (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

/**
 * For Fastify's `onRoute` hook: when `route` is one of `routes`, its handler (the one Nest
 * registered) is wrapped so that the lean handler `current(route)` answers once it exists, and
 * Nest's handler until then (bind() runs before Nest registers its routes, so in practice always
 * the lean one) or when none is given (the bench's ACCREDO_*_PATH=nest). The route stays declared
 * on its controller: OpenAPI, the route walk, its access marking. Used by the gate's scan
 * (device/scan-route.ts), the signed-in admin reads (session/lean-admin.ts) and the public
 * registration (web-channel/online-route.ts).
 */
export function takeOverRoute<R extends { method: string; url: string }>(
  route: RouteOptions,
  routes: readonly R[],
  current: (route: R) => LeanHandler | null,
): void {
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  const lean = routes.find((r) => r.url === route.url && methods.includes(r.method as never));
  if (!lean) return;
  const nest = route.handler;
  route.handler = function (this: unknown, req, reply) {
    const handler = current(lean);
    return handler ? handler(req, reply) : nest.call(this as never, req, reply);
  };
}
