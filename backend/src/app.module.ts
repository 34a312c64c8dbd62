import { type DynamicModule, Global, Module } from '@nestjs/common';
import { APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AccessGuard } from './common/access.guard.js';
import { DataEnvelopeInterceptor, TenantInterceptor } from './common/interceptors.js';
import { APP_CONFIG, type AppConfig } from './config/config.js';
import { dataSourceOptions, ensureDatabaseExists } from './database/data-source.js';
import { AdminUserController } from './modules/admin-user/admin-user.controller.js';
import { AdminUserEntity } from './modules/admin-user/admin-user.entity.js';
import { AdminUserService } from './modules/admin-user/admin-user.service.js';
import { HealthController } from './modules/health.controller.js';
import { MailModule } from './modules/mail/mail.module.js';
import { ManageController } from './modules/manage/manage.controller.js';
import { ManageService } from './modules/manage/manage.service.js';
import { OperatorEntity } from './modules/manage/operator.entity.js';
import { RateLimitEntity } from './modules/rate-limit/rate-limit.entity.js';
import { RateLimitService } from './modules/rate-limit/rate-limit.service.js';
import { AccountLinkEntity } from './modules/session/account-link.entity.js';
import { AccountLinkService } from './modules/session/account-link.service.js';
import { SessionController } from './modules/session/session.controller.js';
import { SessionTokenEntity } from './modules/session/session-token.entity.js';
import { SessionService } from './modules/session/session.service.js';
import { TokenService } from './modules/session/token.service.js';
import { SubjectController } from './modules/subject/subject.controller.js';
import { SubjectEntity } from './modules/subject/subject.entity.js';
import { SubjectService } from './modules/subject/subject.service.js';

@Global()
@Module({})
class ConfigModule {
  static forRoot(config: AppConfig): DynamicModule {
    return { module: ConfigModule, providers: [{ provide: APP_CONFIG, useValue: config }], exports: [APP_CONFIG] };
  }
}

/** Every controller of the app; the route test walks them all. */
export const CONTROLLERS = [
  HealthController,
  SessionController,
  AdminUserController,
  SubjectController,
  ManageController,
];

@Module({})
export class AppModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        TypeOrmModule.forRootAsync({
          useFactory: () => ({ ...dataSourceOptions(config.database), retryAttempts: 1, retryDelay: 1000 }),
          // The schema is the migrations' work, run at start on either database.
          dataSourceFactory: async (options) => {
            await ensureDatabaseExists(config.database);
            const ds = await new DataSource(options!).initialize();
            await ds.runMigrations({ transaction: 'each' });
            return ds;
          },
        }),
        TypeOrmModule.forFeature([
          SubjectEntity,
          AdminUserEntity,
          OperatorEntity,
          SessionTokenEntity,
          AccountLinkEntity,
          RateLimitEntity,
        ]),
        MailModule,
      ],
      controllers: CONTROLLERS,
      providers: [
        TokenService,
        AccountLinkService,
        RateLimitService,
        SessionService,
        AdminUserService,
        SubjectService,
        ManageService,
        { provide: APP_GUARD, useClass: AccessGuard },
        { provide: APP_INTERCEPTOR, useClass: DataEnvelopeInterceptor },
        { provide: APP_INTERCEPTOR, useClass: TenantInterceptor },
      ],
    };
  }
}
