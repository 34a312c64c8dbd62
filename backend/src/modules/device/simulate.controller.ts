import { Controller, Headers, HttpCode, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { z } from 'zod';
import { Right } from '../../common/access.js';
import { ValidBody } from '../../common/zod.js';
import { acceptLanguage } from '@accredo/i18n';
import { SimulateService, simulatePersonSchema, simulateTemplateSchema } from './simulate.service.js';

/** The rule simulator of the template form: decisions computed, nothing written (issue 11). */
@ApiTags('admin: devices')
@Controller('api/admin/v1')
export class SimulateController {
  constructor(private readonly simulate: SimulateService) {}

  /** For a wall-clock moment: how many of the action's people the (unsaved) template lets in, by reason. */
  @Post('device-template/simulate')
  @HttpCode(200)
  @Right('deviceTemplate', 'get')
  template(
    @ValidBody(simulateTemplateSchema) body: z.output<typeof simulateTemplateSchema>,
    @Headers('accept-language') language: string | undefined,
  ) {
    return this.simulate.template(body, acceptLanguage(language));
  }

  /** One person's decision at every device of their action (and under the unsaved form when sent). */
  @Post('device/simulate-person')
  @HttpCode(200)
  @Right('deviceTemplate', 'get')
  person(
    @ValidBody(simulatePersonSchema) body: z.output<typeof simulatePersonSchema>,
    @Headers('accept-language') language: string | undefined,
  ) {
    return this.simulate.person(body, acceptLanguage(language));
  }
}
