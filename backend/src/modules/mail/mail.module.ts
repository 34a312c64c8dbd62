import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { MailQueueEntity } from './mail-queue.entity.js';
import { MailService } from './mail.service.js';

@Module({
  imports: [TypeOrmModule.forFeature([MailQueueEntity])],
  providers: [MailService],
  exports: [MailService],
})
export class MailModule {}
