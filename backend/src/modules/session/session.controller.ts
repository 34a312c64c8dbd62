import {
  confirmLinkSchema,
  type ForgotPasswordInput,
  forgotPasswordSchema,
  type LoginInput,
  loginSchema,
  passwordLinkSchema,
  type RenewPasswordInput,
  renewPasswordSchema,
  type SwitchSubjectInput,
  switchSubjectSchema,
  type VerifyAccountInput,
  verifyAccountSchema,
} from '@accredo/domain';
import { Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AdminSession, ManageUserOnly, Public } from '../../common/access.js';
import { type AdminAuth, ClientIp, CurrentAdmin } from '../../common/request.js';
import { ValidBody } from '../../common/zod.js';
import { SessionService } from './session.service.js';

@ApiTags('admin: session')
@Controller('api/admin/v1')
export class SessionController {
  constructor(private readonly sessions: SessionService) {}

  @Post('login')
  @HttpCode(200)
  @Public()
  login(@ValidBody(loginSchema) body: LoginInput, @ClientIp() ip: string) {
    return this.sessions.login(body, ip);
  }

  @Get('authorization')
  @AdminSession()
  authorization(@CurrentAdmin() auth: AdminAuth) {
    return this.sessions.session(auth.user, auth.rawToken, auth.subjectId);
  }

  @Post('logout')
  @HttpCode(200)
  @AdminSession()
  async logout(@CurrentAdmin() auth: AdminAuth) {
    await this.sessions.logout(auth);
    return true;
  }

  @Post('login/forgot-password')
  @HttpCode(200)
  @Public()
  async forgotPassword(@ValidBody(forgotPasswordSchema) body: ForgotPasswordInput, @ClientIp() ip: string) {
    await this.sessions.forgotPassword(body.login, body.language, ip);
    return true;
  }

  @Post('login/pass-link-authorize')
  @HttpCode(200)
  @Public()
  passLinkAuthorize(@ValidBody(passwordLinkSchema) body: { passwordLink: string }) {
    return this.sessions.passLinkAuthorize(body.passwordLink);
  }

  @Post('login/renew-password')
  @HttpCode(200)
  @Public()
  async renewPassword(@ValidBody(renewPasswordSchema) body: RenewPasswordInput) {
    await this.sessions.renewPassword(body);
    return true;
  }

  @Post('login/verify-authorize')
  @HttpCode(200)
  @Public()
  verifyAuthorize(@ValidBody(confirmLinkSchema) body: { confirmLink: string }) {
    return this.sessions.verifyAuthorize(body.confirmLink);
  }

  @Post('login/verify-account')
  @HttpCode(200)
  @Public()
  async verifyAccount(@ValidBody(verifyAccountSchema) body: VerifyAccountInput) {
    await this.sessions.verifyAccount(body);
    return true;
  }

  @Get('actual')
  @AdminSession()
  actual(@CurrentAdmin() auth: AdminAuth) {
    return this.sessions.actual(auth);
  }

  @Get('subject/all')
  @AdminSession()
  subjectList(@CurrentAdmin() auth: AdminAuth) {
    return this.sessions.subjectList(auth);
  }

  /** Spec §7 leaves the base of the subject switch open: it lives beside GET actual. */
  @Post('actual/subject')
  @HttpCode(200)
  @ManageUserOnly()
  switchSubject(@ValidBody(switchSubjectSchema) body: SwitchSubjectInput, @CurrentAdmin() auth: AdminAuth) {
    return this.sessions.switchSubject(auth, body.subjectId);
  }
}
