import { onlineLoginSchema, onlineRegistrationSchema } from '@accredo/domain';
import {
  Body,
  Controller,
  createParamDecorator,
  type ExecutionContext,
  Get,
  HttpCode,
  Param,
  type PipeTransform,
  Post,
} from '@nestjs/common';
import { ApiBody, ApiHeader, ApiTags } from '@nestjs/swagger';
import { z } from 'zod';
import { Public } from '../../common/access.js';
import { AppError } from '../../common/app-error.js';
import { ClientIp, type AppRequest } from '../../common/request.js';
import { toFieldErrors, ValidBody } from '../../common/zod.js';
import { OnlineService } from './online.service.js';

/** The visitor's online token (spec §4: header authorization-online), if any. */
export function onlineTokenOf(headers: AppRequest['headers']): string | undefined {
  const value = headers['authorization-online'];
  const raw = Array.isArray(value) ? value[0] : value;
  return raw?.replace(/^Bearer\s+/i, '').trim() || undefined;
}

const OnlineToken = createParamDecorator((_: unknown, ctx: ExecutionContext): string | undefined =>
  onlineTokenOf(ctx.switchToHttp().getRequest<AppRequest>().headers),
);

/**
 * The registration payload; an invalid e-mail answers EMAIL_NOT_VALID (spec §8 Online: the page
 * adds 'enter a valid e-mail'), with every field error in details as usual.
 */
export function parseRegistration(value: unknown): z.output<typeof onlineRegistrationSchema> {
  const result = onlineRegistrationSchema.safeParse(value ?? {});
  if (result.success) return result.data;
  const fields = toFieldErrors(result.error);
  if (fields.some((f) => f.path === 'email' && f.key === 'basics.emailNotValid'))
    throw new AppError('EMAIL_NOT_VALID', { fields });
  throw AppError.validation(fields);
}

class RegistrationPipe implements PipeTransform<unknown, z.output<typeof onlineRegistrationSchema>> {
  transform(value: unknown) {
    return parseRegistration(value);
  }
}

/**
 * Public online registration (spec §7 Online), base api/online/v1. Every route is public: the
 * channel in the path decides whether an online token is needed, and the service checks it.
 */
@ApiTags('online')
@ApiHeader({ name: 'authorization-online', required: false, description: 'the online token of POST web-channel/login' })
@Controller('api/online/v1')
export class OnlineController {
  constructor(private readonly online: OnlineService) {}

  @Get('web-channel/data/:key')
  @Public()
  data(@Param('key') key: string, @OnlineToken() token?: string) {
    return this.online.data(key, token);
  }

  @Get('web-channel/:key')
  @Public()
  info(@Param('key') key: string) {
    return this.online.info(key);
  }

  @Post('web-channel/login')
  @HttpCode(200)
  @Public()
  login(@ValidBody(onlineLoginSchema) body: z.output<typeof onlineLoginSchema>, @ClientIp() ip: string) {
    return this.online.login(body, ip);
  }

  @Post('web-channel/authorize/:key')
  @HttpCode(200)
  @Public()
  authorize(@Param('key') key: string, @OnlineToken() token?: string) {
    return this.online.authorize(key, token);
  }

  @Post('web-channel/logout/:key')
  @HttpCode(200)
  @Public()
  logout(@Param('key') key: string, @OnlineToken() token?: string) {
    return this.online.logout(key, token);
  }

  @Post('accreditation/:key')
  @Public()
  @ApiBody({ schema: z.toJSONSchema(onlineRegistrationSchema, { io: 'input', unrepresentable: 'any' }) as object })
  register(
    @Param('key') key: string,
    @Body(new RegistrationPipe()) body: z.output<typeof onlineRegistrationSchema>,
    @OnlineToken() token?: string,
  ) {
    return this.online.register(key, token, body);
  }
}
