import { devicePairSchema, deviceScanSchema, deviceUnpairSchema, deviceUploadSchema } from '@accredo/domain';
import { Controller, Get, Headers, HttpCode, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { z } from 'zod';
import { DeviceSession, Public } from '../../common/access.js';
import { AppError } from '../../common/app-error.js';
import { CurrentDevice, type DeviceAuth } from '../../common/request.js';
import { ValidBody } from '../../common/zod.js';
import { DeviceProtocolService, PAGE_MAX } from './device-protocol.service.js';
import { acceptLanguage } from '@accredo/i18n';
import { GateService } from './gate.service.js';

function pageSize(value: string | undefined, def: number): number {
  if (value === undefined) return def;
  if (!/^[1-9]\d{0,5}$/.test(value)) throw AppError.validation([{ path: 'limit', key: 'basics.invalidValue' }]);
  return Math.min(Number(value), PAGE_MAX);
}

/** The device protocol (issue 11, docs/device-protocol.md): every route but `pair` needs the device token. */
@ApiTags('device')
@Controller('api/device/v1')
export class DeviceProtocolController {
  constructor(
    private readonly protocol: DeviceProtocolService,
    private readonly gate: GateService,
  ) {}

  /** The `bc` code of GET device/key in exchange for a device token (shown once). */
  @Post('pair')
  @HttpCode(200)
  @Public()
  pair(@ValidBody(devicePairSchema) body: z.output<typeof devicePairSchema>) {
    return this.protocol.pair(body);
  }

  /**
   * The `bcClear` code scanned at the device revokes its token; without a code the device revokes
   * its own token (an operator unpairing the gate screen), so it stops working on the server too.
   */
  @Post('unpair')
  @HttpCode(200)
  @DeviceSession()
  async unpair(
    @CurrentDevice() auth: DeviceAuth,
    @ValidBody(deviceUnpairSchema) body: z.output<typeof deviceUnpairSchema>,
  ) {
    if (body.code === undefined) await this.protocol.revoke(auth);
    else await this.protocol.unpair(auth, body.code);
    return { unpaired: true };
  }

  @Get('config')
  @DeviceSession()
  config(@CurrentDevice() auth: DeviceAuth, @Headers('x-app-version') appVersion?: string) {
    return this.protocol.config(auth, appVersion);
  }

  /**
   * One online decision (D16–D19). Declared here for OpenAPI, the route walk and its access marking;
   * on the wire the lean handler of scan-route.ts answers it (swapped in by app.factory's onRoute
   * hook: same token check, schema, envelope and answer, without the Nest pipeline). This body runs
   * only if that handler is not bound.
   */
  @Post('scan')
  @HttpCode(200)
  @DeviceSession()
  scan(
    @CurrentDevice() auth: DeviceAuth,
    @ValidBody(deviceScanSchema) body: z.output<typeof deviceScanSchema>,
    @Headers('accept-language') language?: string,
  ) {
    return this.gate.scan(auth, body, acceptLanguage(language));
  }

  /** A batch of offline scans (D20): never refused, replayed in scan-time order. */
  @Post('upload')
  @HttpCode(200)
  @DeviceSession()
  upload(
    @CurrentDevice() auth: DeviceAuth,
    @ValidBody(deviceUploadSchema) body: z.output<typeof deviceUploadSchema>,
    @Headers('accept-language') language?: string,
  ) {
    return this.gate.upload(auth, body.scans, acceptLanguage(language));
  }

  /** The action's people and rule data a page at a time (after = last id of the previous page). */
  @Get('snapshot')
  @DeviceSession()
  snapshot(@CurrentDevice() auth: DeviceAuth, @Query('after') after?: string, @Query('limit') limit?: string) {
    if (after !== undefined && !/^\d{1,12}$/.test(after))
      throw AppError.validation([{ path: 'after', key: 'basics.invalidValue' }]);
    return this.protocol.snapshot(auth, Number(after ?? 0), pageSize(limit, 1000));
  }

  /** People created or changed since the cursor of the snapshot or the previous call. */
  @Get('changes')
  @DeviceSession()
  changes(@CurrentDevice() auth: DeviceAuth, @Query('cursor') cursor?: string, @Query('limit') limit?: string) {
    return this.protocol.changes(auth, cursor, pageSize(limit, 1000));
  }
}
