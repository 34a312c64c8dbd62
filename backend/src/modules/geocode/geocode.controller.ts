import { geocodeQuerySchema } from '@accredo/domain';
import { Controller, Get, Headers, Param, Query } from '@nestjs/common';
import { ApiQuery, ApiTags } from '@nestjs/swagger';
import type { z } from 'zod';
import { AdminSession, AnyRight, Public } from '../../common/access.js';
import { ClientIp } from '../../common/request.js';
import { ZodPipe } from '../../common/zod.js';
import { RateLimitService } from '../rate-limit/rate-limit.service.js';
import { OnlineService } from '../web-channel/online.service.js';
import { GeocodeService } from './geocode.service.js';

type GeocodeQuery = z.output<typeof geocodeQuerySchema>;

/** Per visitor's address and per channel: suggestions follow typing (debounced 500 ms). */
const PER_ADDRESS = { max: 30, windowMs: 60_000 };
const PER_CHANNEL = { max: 300, windowMs: 60_000 };

const languageOf = (header: string | undefined) => (header ?? '').slice(0, 2).toLowerCase() || 'cs';

/**
 * Address suggestions (spec §5 Address, §9): a proxy to the configured geocoding service, so the
 * browser never talks to it directly and its address is not exposed. `status` tells the web app
 * whether suggestions are on; without GEOCODING_URL the search answers 404 GEOCODING_DISABLED.
 */
@ApiTags('geocoding')
@Controller('api')
export class GeocodeController {
  constructor(
    private readonly geocode: GeocodeService,
    private readonly online: OnlineService,
    private readonly limits: RateLimitService,
  ) {}

  @Get('admin/v1/geocode/status')
  @AdminSession()
  adminStatus() {
    return { enabled: this.geocode.enabled };
  }

  @Get('admin/v1/geocode')
  @AnyRight(['user', 'createUser'], ['user', 'updateUser'])
  @ApiQuery({ name: 'q', required: true })
  adminSearch(
    @Query(new ZodPipe(geocodeQuerySchema)) query: GeocodeQuery,
    @Headers('accept-language') language?: string,
  ) {
    return this.geocode.search(query.q, languageOf(language));
  }

  @Get('online/v1/geocode/status')
  @Public()
  onlineStatus() {
    return { enabled: this.geocode.enabled };
  }

  /** Only for an open channel (its state errors otherwise), rate-limited per address and channel. */
  @Get('online/v1/geocode/:channelKey')
  @Public()
  @ApiQuery({ name: 'q', required: true })
  async onlineSearch(
    @Param('channelKey') channelKey: string,
    @Query(new ZodPipe(geocodeQuerySchema)) query: GeocodeQuery,
    @ClientIp() ip: string,
    @Headers('accept-language') language?: string,
  ) {
    await this.online.info(channelKey);
    if (!this.geocode.enabled) return this.geocode.search(query.q, languageOf(language));
    const limits = [
      { key: `geocode:ip:${ip}`, ...PER_ADDRESS },
      { key: `geocode:channel:${channelKey}`, ...PER_CHANNEL },
    ];
    // counted and checked in one atomic step, so a burst of parallel requests cannot pass the limit
    await this.limits.consume(limits);
    return this.geocode.search(query.q, languageOf(language));
  }
}
