import { isDate } from '@accredo/access';
import { Controller, Get, Headers, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Right } from '../../common/access.js';
import { AppError } from '../../common/app-error.js';
import { acceptLanguage } from '@accredo/i18n';
import { LiveService } from './live.service.js';

/** The live view of an action: inside per zone, entries per hour, refusals by reason (issue 11). */
@ApiTags('admin: reports')
@Controller('api/admin/v1')
export class LiveController {
  constructor(private readonly live: LiveService) {}

  @Get('report/live')
  @Right('report', 'getReport')
  view(
    @Query('actionId') actionId: string | undefined,
    @Query('day') day: string | undefined,
    @Headers('accept-language') language: string | undefined,
  ) {
    if (!actionId || !/^[1-9]\d{0,9}$/.test(actionId))
      throw AppError.validation([{ path: 'actionId', key: actionId ? 'basics.invalidValue' : 'basics.requireField' }]);
    if (day !== undefined && !isDate(day)) throw AppError.validation([{ path: 'day', key: 'basics.enterCorrectDate' }]);
    return this.live.view(Number(actionId), day ?? null, acceptLanguage(language));
  }
}
