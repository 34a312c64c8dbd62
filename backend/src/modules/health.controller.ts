import { Controller, Get } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { ApiTags } from '@nestjs/swagger';
import type { DataSource } from 'typeorm';
import { Public } from '../common/access.js';

/** For load balancers and start scripts: answers once the database is reachable. */
@ApiTags('health')
@Controller('api')
export class HealthController {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  @Get('health')
  @Public()
  async health() {
    await this.ds.query('SELECT 1');
    return { status: 'ok', database: this.ds.options.type };
  }
}
