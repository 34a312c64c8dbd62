import type { DashboardBasicData } from '@accredo/domain';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { AccreditationEntity } from '../accreditation/accreditation.entity.js';
import { ActionEntity } from '../action/action.entity.js';
import { MailService } from '../mail/mail.service.js';
import { WebChannelEntity } from '../web-channel/web-channel.entity.js';

/**
 * The dashboard's data (spec §3 Dashboard data). Only `basicData`, the counts of the tiles, so far;
 * the charts and the latest accreditations come with the dashboard issue.
 */
@Injectable()
export class DashboardService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly mail: MailService,
  ) {}

  async data(subjectId: number): Promise<{ basicData: DashboardBasicData }> {
    const [actionCount, userCount, webChannelCount, mails] = await Promise.all([
      this.ds.getRepository(ActionEntity).count({ where: { subjectId } }),
      this.ds.getRepository(AccreditationEntity).count({ where: { subjectId } }),
      this.ds.getRepository(WebChannelEntity).count({ where: { subjectId } }),
      this.mail.counts(subjectId),
    ]);
    return {
      basicData: {
        actionCount,
        webChannelCount,
        userCount,
        emailSentCount: mails.sent,
        emailInQueue: mails.waiting,
        emailErrorCount: mails.error,
      },
    };
  }
}
