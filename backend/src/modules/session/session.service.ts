import type {
  LoginInput,
  RenewPasswordInput,
  Rights,
  Session,
  SubjectSummary,
  VerifyAccountInput,
} from '@accredo/domain';
import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { AppError } from '../../common/app-error.js';
import { dummyPasswordHash, hashPassword, verifyPassword } from '../../common/crypto.js';
import type { AdminAuth } from '../../common/request.js';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { effectiveRights, toAdminUser } from '../admin-user/admin-user.dto.js';
import { AdminUserEntity } from '../admin-user/admin-user.entity.js';
import { type Limit, RateLimitService } from '../rate-limit/rate-limit.service.js';
import { toSubjectSummary } from '../subject/subject.dto.js';
import { SubjectEntity } from '../subject/subject.entity.js';
import { AccountLinkService } from './account-link.service.js';
import { TokenService } from './token.service.js';

const WINDOW = 15 * 60_000;
/** Forgot-password mails: 20 per address in 15 minutes, 5 per account in an hour. */
export const forgotLimits = (login: string, ip: string): Limit[] => [
  { key: `admin:forgot:${ip}`, max: 20, windowMs: WINDOW },
  { key: `admin:forgot-account:${login}`, max: 5, windowMs: 4 * WINDOW },
];

const rightsOf = new WeakMap<AdminUserEntity, Rights>();

/** Sign-in, sessions and the e-mailed account links of the admin application (spec §7 Session). */
@Injectable()
export class SessionService {
  constructor(
    @InjectRepository(AdminUserEntity) private readonly users: Repository<AdminUserEntity>,
    @InjectRepository(SubjectEntity) private readonly subjects: Repository<SubjectEntity>,
    private readonly tokens: TokenService,
    private readonly links: AccountLinkService,
    private readonly limits: RateLimitService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async login(input: LoginInput, ip: string): Promise<Session> {
    const login = input.login.trim().toLowerCase();
    // Counted before the password is checked (requests sent at once are all counted).
    const attempt = await this.limits.signIn('admin', login, ip);
    const user = await this.users.findOneBy({ login });
    // Verify against a dummy hash when there is no such user: the answer and its timing say nothing.
    const ok = await verifyPassword(
      input.password,
      user?.passwordHash ?? (await dummyPasswordHash(this.config.passwordHashCost)),
    );
    if (!user || !ok || !user.active) throw new AppError('INVALID_LOGIN');
    await attempt.succeeded();
    if (!user.verified) throw new AppError('ADMIN_USER_NOT_VERIFIED');
    const { raw, row } = await this.tokens.issue('admin', user.id, user.subjectId);
    return this.session(user, raw, row.subjectId ?? user.subjectId);
  }

  /** The session answer (login, GET authorization, subject switch): rights and subject come from memory when cached. */
  async session(user: AdminUserEntity, token: string, subjectId: number): Promise<Session> {
    const subject = await this.tokens.subjectSummary(subjectId, async (id) => {
      const row = await this.subjects.findOneBy({ id });
      return row ? toSubjectSummary(row) : undefined;
    });
    if (!subject) throw new AppError('TOKEN_INVALID');
    // a cached session hands the same user object to every request: its rights are computed once
    let rights = rightsOf.get(user);
    if (!rights) {
      rights = effectiveRights(user);
      rightsOf.set(user, rights);
    }
    return { token, rights, superuser: user.superuser, manageuser: user.manageuser, subject };
  }

  async logout(auth: AdminAuth): Promise<void> {
    await this.tokens.revoke(auth.token.id);
  }

  async actual(auth: AdminAuth) {
    return toAdminUser(auth.user, (await this.subjects.findOneBy({ id: auth.subjectId })) ?? undefined);
  }

  async subjectList(auth: AdminAuth): Promise<SubjectSummary[]> {
    const rows = auth.user.manageuser
      ? await this.subjects.find({ order: { name: 'ASC' } })
      : await this.subjects.findBy({ id: auth.user.subjectId });
    return rows.map(toSubjectSummary);
  }

  /** A manageuser moves the session to another subject; the current action starts over. */
  async switchSubject(auth: AdminAuth, subjectId: number): Promise<Session> {
    const subject = await this.subjects.findOneBy({ id: subjectId });
    if (!subject) throw new AppError('SUBJECT_DOESNT_EXIST');
    await this.tokens.setSubject(auth.token.id, subject.id);
    await this.users.update({ id: auth.user.id }, { lastActionId: null });
    await this.tokens.principalChanged('admin', auth.user.id);
    return this.session(auth.user, auth.rawToken, subject.id);
  }

  async forgotPassword(login: string, language: string | undefined, ip: string): Promise<void> {
    const email = login.trim().toLowerCase();
    await this.limits.consume(forgotLimits(email, ip));
    const user = await this.users.findOneBy({ login: email });
    // Spec §8: the failure says the e-mail was not found.
    if (!user?.active) throw new AppError('EMAIL_NOT_FOUND');
    await this.links.sendPasswordLink(user, language);
  }

  async passLinkAuthorize(passwordLink: string): Promise<{ email: string }> {
    const link = await this.links.find('password', passwordLink);
    if (link.usedAt) throw new AppError('LINK_INVALID');
    const user = await this.users.findOneBy({ id: link.adminUserId });
    if (!user) throw new AppError('LINK_INVALID');
    return { email: user.login };
  }

  async renewPassword(input: RenewPasswordInput): Promise<void> {
    const link = await this.links.find('password', input.passwordLink);
    const user = await this.users.findOneBy({ id: link.adminUserId });
    if (!user || link.usedAt || user.login !== input.email) throw new AppError('LINK_INVALID');
    if (!(await this.links.consume(link))) throw new AppError('LINK_INVALID');
    user.passwordHash = await hashPassword(input.password, this.config.passwordHashCost);
    // The mailbox owner proved themselves: a renewed password also confirms the account.
    user.verified = true;
    user.updatedAt = new Date();
    await this.users.save(user);
    await this.tokens.revokeAll('admin', user.id);
  }

  async verifyAuthorize(confirmLink: string): Promise<{ email: string }> {
    const link = await this.links.find('verify', confirmLink);
    const user = await this.users.findOneBy({ id: link.adminUserId });
    if (!user) throw new AppError('LINK_INVALID');
    if (user.verified) throw new AppError('ADMIN_USER_ALREADY_VERIFIED');
    if (link.usedAt) throw new AppError('LINK_INVALID');
    return { email: user.login };
  }

  async verifyAccount(input: VerifyAccountInput): Promise<void> {
    const link = await this.links.find('verify', input.confirmLink);
    const user = await this.users.findOneBy({ id: link.adminUserId });
    if (!user || user.login !== input.email) throw new AppError('LINK_INVALID');
    if (user.verified) throw new AppError('ADMIN_USER_ALREADY_VERIFIED');
    if (!(await this.links.consume(link))) throw new AppError('ADMIN_USER_ALREADY_VERIFIED');
    user.passwordHash = await hashPassword(input.password, this.config.passwordHashCost);
    user.verified = true;
    user.updatedAt = new Date();
    await this.users.save(user);
    await this.tokens.principalChanged('admin', user.id);
  }
}
