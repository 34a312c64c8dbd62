import { translate } from '@accredo/i18n';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, type Repository } from 'typeorm';
import { AppError } from '../../common/app-error.js';
import { randomToken, sha256 } from '../../common/crypto.js';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import type { AdminUserEntity } from '../admin-user/admin-user.entity.js';
import { MailService } from '../mail/mail.service.js';
import { AccountLinkEntity, type LinkKind } from './account-link.entity.js';

/**
 * The e-mailed links of spec §4: account confirmation (/verify/{link}) and password renewal
 * (/forgot-password/{link}). Single-use, expiring, stored hashed; the mail goes through the queue.
 */
@Injectable()
export class AccountLinkService {
  private readonly logger = new Logger('AccountLinks');

  constructor(
    @InjectRepository(AccountLinkEntity) private readonly repo: Repository<AccountLinkEntity>,
    private readonly mail: MailService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async sendVerification(user: AdminUserEntity, subjectName: string, language?: string): Promise<void> {
    await this.send(user, 'verify', language, (link, hours) => ({
      subject: translate(language ?? user.language, 'mail.verifySubject'),
      text: translate(language ?? user.language, 'mail.verifyBody', {
        name: user.name,
        subject: subjectName,
        link,
        hours,
      }),
    }));
  }

  async sendPasswordLink(user: AdminUserEntity, language?: string): Promise<void> {
    await this.send(user, 'password', language, (link, hours) => ({
      subject: translate(language ?? user.language, 'mail.passwordSubject'),
      text: translate(language ?? user.language, 'mail.passwordBody', { name: user.name, link, hours }),
    }));
  }

  private async send(
    user: AdminUserEntity,
    kind: LinkKind,
    _language: string | undefined,
    render: (link: string, hours: number) => { subject: string; text: string },
  ): Promise<void> {
    const raw = randomToken();
    const hours = kind === 'verify' ? this.config.verifyLinkHours : this.config.passwordLinkHours;
    const now = new Date();
    // A new link replaces the unused ones of the same kind.
    await this.repo.update({ adminUserId: user.id, kind, usedAt: IsNull() }, { usedAt: now });
    await this.repo.save(
      this.repo.create({
        adminUserId: user.id,
        kind,
        linkHash: sha256(raw),
        createdAt: now,
        usedAt: null,
        expiresAt: new Date(now.getTime() + hours * 3_600_000),
      }),
    );
    const url = `${this.config.publicUrl}/${kind === 'verify' ? 'verify' : 'forgot-password'}/${raw}`;
    const { subject, text } = render(url, hours);
    await this.mail.enqueue({
      to: user.login,
      subject,
      text,
      subjectId: user.subjectId,
      adminUserId: user.id,
      note: `account-link:${kind}`,
    });
    if (!this.config.smtpUrl)
      this.logger.log(`${kind === 'verify' ? 'Verification' : 'Password'} link for ${user.login}: ${url}`);
  }

  /** The link's row when it exists and has not expired (used or not: the caller decides). */
  async find(kind: LinkKind, raw: string): Promise<AccountLinkEntity> {
    const row = await this.repo.findOneBy({ linkHash: sha256(raw), kind });
    if (!row || row.expiresAt.getTime() <= Date.now()) throw new AppError('LINK_INVALID');
    return row;
  }

  /** Marks the link used; false when another request used it first. */
  async consume(row: AccountLinkEntity): Promise<boolean> {
    const result = await this.repo.update({ id: row.id, usedAt: IsNull() }, { usedAt: new Date() });
    return Boolean(result.affected);
  }
}
