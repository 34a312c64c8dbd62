import type { LoginInput, ManageSession } from '@accredo/domain';
import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import type { Repository } from 'typeorm';
import { AppError } from '../../common/app-error.js';
import { dummyPasswordHash, hashPassword, verifyPassword } from '../../common/crypto.js';
import type { ManageAuth } from '../../common/request.js';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { RateLimitService } from '../rate-limit/rate-limit.service.js';
import { TokenService } from '../session/token.service.js';
import { OperatorEntity } from './operator.entity.js';

export const DEFAULT_OPERATOR_EMAIL = 'operator@accredo.local';

/** Provider operators: the first one comes from OPERATOR_EMAIL/OPERATOR_PASSWORD on first start. */
@Injectable()
export class ManageService implements OnApplicationBootstrap {
  private readonly logger = new Logger('Manage');

  constructor(
    @InjectRepository(OperatorEntity) private readonly operators: Repository<OperatorEntity>,
    private readonly tokens: TokenService,
    private readonly limits: RateLimitService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if ((await this.operators.count()) > 0) return;
    const email = this.config.operatorEmail ?? DEFAULT_OPERATOR_EMAIL;
    const generated = !this.config.operatorPassword;
    const password = this.config.operatorPassword ?? randomBytes(9).toString('base64url');
    try {
      await this.operators.insert({
        email,
        name: 'Operator',
        passwordHash: await hashPassword(password, this.config.passwordHashCost),
        createdAt: new Date(),
      });
    } catch {
      return; // another instance created it at the same moment
    }
    if (generated) {
      this.logger.warn(`Created the manage-module operator ${email} with the generated password: ${password}`);
      this.logger.warn(
        'It is shown only this once. Sign in at /manage/login (set OPERATOR_EMAIL and OPERATOR_PASSWORD to choose them).',
      );
    } else {
      this.logger.log(`Created the manage-module operator ${email} from OPERATOR_EMAIL/OPERATOR_PASSWORD`);
    }
  }

  async login(input: LoginInput, ip: string): Promise<ManageSession> {
    const email = input.login.trim().toLowerCase();
    // Counted before the password is checked (requests sent at once are all counted).
    const attempt = await this.limits.signIn('manage', email, ip);
    const operator = await this.operators.findOneBy({ email });
    const ok = await verifyPassword(
      input.password,
      operator?.passwordHash ?? (await dummyPasswordHash(this.config.passwordHashCost)),
    );
    if (!operator || !ok) throw new AppError('INVALID_LOGIN');
    await attempt.succeeded();
    const { raw } = await this.tokens.issue('manage', operator.id, null);
    return this.session(operator, raw);
  }

  session(operator: OperatorEntity, token: string): ManageSession {
    return { token, operator: { id: operator.id, email: operator.email, name: operator.name } };
  }

  async logout(auth: ManageAuth): Promise<void> {
    await this.tokens.revoke(auth.token.id);
  }
}
