import { subjectUpdateSchema } from '@accredo/domain';
import { Controller, Get, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { z } from 'zod';
import { Right } from '../../common/access.js';
import { ValidBody } from '../../common/zod.js';
import { SubjectService } from './subject.service.js';

@ApiTags('admin: subject')
@Controller('api/admin/v1')
export class SubjectController {
  constructor(private readonly subjects: SubjectService) {}

  @Get('subject')
  @Right('subject', 'get')
  get() {
    return this.subjects.current();
  }

  @Put('subject')
  @Right('subject', 'update')
  update(@ValidBody(subjectUpdateSchema) body: z.output<typeof subjectUpdateSchema>) {
    return this.subjects.updateCurrent(body);
  }
}
