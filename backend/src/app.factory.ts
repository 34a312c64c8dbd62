import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { type LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import multipart from '@fastify/multipart';
import { AppModule } from './app.module.js';
import { ErrorFilter } from './common/error.filter.js';
import { attachRawFront } from './common/raw-front.js';
import { addWebHooks, serveWebApp, setSecurityHeaders } from './common/web-app.js';
import { leanScan } from './modules/device/scan-route.js';
import { leanAdminRoutes } from './modules/session/lean-admin.js';
import { leanOnlineRoute } from './modules/web-channel/online-route.js';
import type { AppConfig } from './config/config.js';

const LEVELS: LogLevel[] = ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'];

/** Builds the whole server: API, OpenAPI at /api/docs, and the web app's files. */
export async function createApp(config: AppConfig): Promise<NestFastifyApplication> {
  const webDist = fs.existsSync(config.webDist) ? config.webDist : null;
  const filter = new ErrorFilter(webDist);
  // POST api/device/v1/scan answers through a lean handler, not Nest's pipeline (issue 11 speed).
  const scanRoute = leanScan();
  // GET authorization and user/check/{bc} likewise (issue 16, modules/session/lean-admin.ts).
  const adminRoutes = leanAdminRoutes();
  // and the public online registration (issue 16, modules/web-channel/online-route.ts)
  const onlineRoute = leanOnlineRoute();
  const adapter: FastifyAdapter = new FastifyAdapter({
    // What Fastify answers itself (malformed URL, over-long parameter, unparsable request) gets the
    // error envelope too; the security hook Nest would run there still runs.
    ...filter.fastifyOptions((request, reply) => {
      (adapter as unknown as { securityHook?: (req: unknown, res: unknown) => void }).securityHook?.(
        request,
        reply.raw,
      );
      setSecurityHeaders(request.url, reply);
    }),
    // Room for a 10 MB spreadsheet sent as base64 (spec §7 import) and photo batches.
    bodyLimit: 16 * 1024 * 1024,
    trustProxy: process.env.TRUST_PROXY === '1' || process.env.TRUST_PROXY === 'true',
    genReqId: () => randomUUID(),
  });
  // A route may raise its own body limit with @RouteConfig({ bodyLimit }) (the image import's batches).
  adapter.getInstance().addHook('onRoute', (route) => {
    const limit = (route.config as { bodyLimit?: unknown } | undefined)?.bodyLimit;
    if (typeof limit === 'number') route.bodyLimit = limit;
    filter.addRoute(route.method, route.url);
    scanRoute.onRoute(route);
    adminRoutes.onRoute(route);
    onlineRoute.onRoute(route);
  });
  // Security headers on every answer; no source maps, no index.html for a missing asset (issue 10 items 6, 11).
  addWebHooks(adapter.getInstance());
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config), adapter, {
    logger: LEVELS.slice(0, LEVELS.indexOf(config.logLevel) + 1),
    abortOnError: false,
  });
  app.useGlobalFilters(filter);
  scanRoute.bind(app);
  adminRoutes.bind(app);
  // the scan's and the admin reads' raw paths on Node's server in front of Fastify (issue 11
  // "speed", issue 16; common/raw-front.ts)
  attachRawFront(adapter.getInstance(), [scanRoute.raw(adapter.getInstance(), filter), adminRoutes.raw(filter)]);
  onlineRoute.bind(app);
  // `content-type: application/json` with no body (as many clients send a POST without data) is an
  // empty body, not Fastify's 400 FST_ERR_CTP_EMPTY_JSON_BODY; anything else is parsed as before.
  const json = adapter.getInstance().getDefaultJsonParser('error', 'error');
  app.useBodyParser(
    'application/json',
    { bodyLimit: adapter.getInstance().initialConfig.bodyLimit },
    (req, body, done) => (body.length ? json(req as never, body as never, done) : done(null, undefined)),
  );
  // multipart/form-data, read as a stream by the routes that take a file (the import's upload);
  // each such route sets its own limits when it reads (accreditation-files.service.ts)
  await app.register(multipart as never, { limits: { files: 1, fields: 20, fieldSize: 1024, parts: 30 } });
  if (webDist) await serveWebApp(app, webDist);

  const doc = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('Accredo API')
      .setDescription('Spec §7: admin, online, preview and manage calls')
      .setVersion('1')
      .build(),
  );
  SwaggerModule.setup('api/docs', app, doc);

  app.enableShutdownHooks();
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
  return app;
}
