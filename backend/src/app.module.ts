import { type DynamicModule, Global, Module } from '@nestjs/common';
import { APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AccessGuard } from './common/access.guard.js';
import { DataEnvelopeInterceptor, TenantInterceptor } from './common/interceptors.js';
import { APP_CONFIG, type AppConfig } from './config/config.js';
import { dataSourceOptions, ENTITIES, ensureDatabaseExists } from './database/data-source.js';
import { AdminUserController } from './modules/admin-user/admin-user.controller.js';
import { AdminUserService } from './modules/admin-user/admin-user.service.js';
import { HealthController } from './modules/health.controller.js';
import { AccreditationController } from './modules/accreditation/accreditation.controller.js';
import { AccreditationFilesService } from './modules/accreditation/accreditation-files.service.js';
import { AccreditationImagesController } from './modules/accreditation/accreditation-images.controller.js';
import { AccreditationImagesService } from './modules/accreditation/accreditation-images.service.js';
import { GeocodeController } from './modules/geocode/geocode.controller.js';
import { GeocodeService } from './modules/geocode/geocode.service.js';
import { AccreditationService } from './modules/accreditation/accreditation.service.js';
import { TrigramWorker } from './modules/accreditation/trigram-worker.js';
import { PrintController } from './modules/accreditation/print.controller.js';
import { PrintService } from './modules/accreditation/print.service.js';
import { BadgePdfService } from './modules/pdf/badge-pdf.service.js';
import { PdfDeviceController, PdfJobController } from './modules/pdf/pdf-job.controller.js';
import { PdfRenderer } from './modules/pdf/pdf-renderer.service.js';
import { AccreditationHistoryService } from './modules/accreditation/accreditation-history.service.js';
import { ActionController } from './modules/action/action.controller.js';
import { ActionService } from './modules/action/action.service.js';
import { CustomFieldController } from './modules/custom-field/custom-field.controller.js';
import { CustomFieldService } from './modules/custom-field/custom-field.service.js';
import { GroupsController } from './modules/groups/groups.controller.js';
import { GroupsService } from './modules/groups/groups.service.js';
import { ImageController } from './modules/image/image.controller.js';
import { ImageService } from './modules/image/image.service.js';
import { StorageService } from './modules/storage/storage.service.js';
import { TemplateController } from './modules/template/template.controller.js';
import { TemplateEngineController } from './modules/template/template-engine.controller.js';
import { TemplateEngineService } from './modules/template/template-engine.service.js';
import { MailTemplateService, TemplateService } from './modules/template/template.service.js';
import { ZoneController } from './modules/zone/zone.controller.js';
import { ZoneService } from './modules/zone/zone.service.js';
import { MailModule } from './modules/mail/mail.module.js';
import { AccreditationMailService } from './modules/mail/accreditation-mail.service.js';
import { MailController } from './modules/mail/mail.controller.js';
import { DashboardController } from './modules/dashboard/dashboard.controller.js';
import { DashboardService } from './modules/dashboard/dashboard.service.js';
import { DeviceController, ReportController } from './modules/device/device.controller.js';
import { DeviceProtocolController } from './modules/device/device-protocol.controller.js';
import { DeviceProtocolService } from './modules/device/device-protocol.service.js';
import { DeviceService } from './modules/device/device.service.js';
import { DeviceSessions } from './modules/device/device-sessions.service.js';
import { GateCache } from './modules/device/gate-cache.service.js';
import { GateService } from './modules/device/gate.service.js';
import { ReportService } from './modules/device/report.service.js';
import { LiveController } from './modules/device/live.controller.js';
import { LiveService } from './modules/device/live.service.js';
import { SimulateController } from './modules/device/simulate.controller.js';
import { SimulateService } from './modules/device/simulate.service.js';
import { ManageController } from './modules/manage/manage.controller.js';
import { OnlineController } from './modules/web-channel/online.controller.js';
import { OnlineService } from './modules/web-channel/online.service.js';
import { WebChannelController } from './modules/web-channel/web-channel.controller.js';
import { WebChannelService } from './modules/web-channel/web-channel.service.js';
import { ManageService } from './modules/manage/manage.service.js';
import { RateLimitService } from './modules/rate-limit/rate-limit.service.js';
import { AccountLinkService } from './modules/session/account-link.service.js';
import { SessionController } from './modules/session/session.controller.js';
import { SessionService } from './modules/session/session.service.js';
import { SessionCache } from './modules/session/session-cache.service.js';
import { TokenService } from './modules/session/token.service.js';
import { SubjectController } from './modules/subject/subject.controller.js';
import { SubjectService } from './modules/subject/subject.service.js';
import { ActionExtensionController } from './modules/action-extension/action-extension.controller.js';
import { ActionExtensionService } from './modules/action-extension/action-extension.service.js';
import { PreviewController } from './modules/preview/preview.controller.js';
import { PreviewService } from './modules/preview/preview.service.js';

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
  ActionController,
  CustomFieldController,
  GroupsController,
  ZoneController,
  TemplateController,
  TemplateEngineController,
  ImageController,
  AccreditationController,
  PrintController,
  PdfJobController,
  PdfDeviceController,
  WebChannelController,
  OnlineController,
  AccreditationImagesController,
  GeocodeController,
  MailController,
  DashboardController,
  DeviceController,
  ReportController,
  DeviceProtocolController,
  SimulateController,
  LiveController,
  ActionExtensionController,
  PreviewController,
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
        // every entity's repository for the app's services
        TypeOrmModule.forFeature(ENTITIES),
        MailModule,
      ],
      controllers: CONTROLLERS,
      providers: [
        SessionCache,
        TokenService,
        AccountLinkService,
        RateLimitService,
        SessionService,
        AdminUserService,
        SubjectService,
        ManageService,
        StorageService,
        ActionService,
        CustomFieldService,
        GroupsService,
        ZoneService,
        TemplateService,
        MailTemplateService,
        TemplateEngineService,
        PrintService,
        PdfRenderer,
        BadgePdfService,
        ImageService,
        AccreditationService,
        TrigramWorker,
        AccreditationFilesService,
        AccreditationImagesService,
        GeocodeService,
        AccreditationHistoryService,
        AccreditationMailService,
        WebChannelService,
        OnlineService,
        DashboardService,
        DeviceSessions,
        GateCache,
        DeviceService,
        DeviceProtocolService,
        GateService,
        ReportService,
        SimulateService,
        LiveService,
        ActionExtensionService,
        PreviewService,
        { provide: APP_GUARD, useClass: AccessGuard },
        { provide: APP_INTERCEPTOR, useClass: DataEnvelopeInterceptor },
        { provide: APP_INTERCEPTOR, useClass: TenantInterceptor },
      ],
    };
  }
}
