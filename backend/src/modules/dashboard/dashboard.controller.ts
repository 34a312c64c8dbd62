import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Right } from '../../common/access.js';
import { type AdminAuth, CurrentAdmin } from '../../common/request.js';
import { DashboardService } from './dashboard.service.js';

@ApiTags('admin: dashboard')
@Controller('api/admin/v1')
export class DashboardController {
  constructor(private readonly dashboard: DashboardService) {}

  /** Spec §7 GET dashboard: the counts of the tiles (basicData). */
  @Get('dashboard')
  @Right('dashboard', 'getDashboardData')
  get(@CurrentAdmin() actor: AdminAuth) {
    return this.dashboard.data(actor.subjectId);
  }
}
