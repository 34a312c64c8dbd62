import { randomUUID } from 'node:crypto';
import type { ActionData, actionSchema } from '@accredo/domain';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import type { z } from 'zod';
import { assertOwned, SubjectCrud } from '../../common/crud.js';
import type { AdminAuth } from '../../common/request.js';
import { TenantRepository } from '../../database/tenant.js';
import { AdminUserEntity } from '../admin-user/admin-user.entity.js';
import { CustomFieldEntity } from '../custom-field/custom-field.entity.js';
import { ImageEntity } from '../image/image.entity.js';
import { TokenService } from '../session/token.service.js';
import { MailTemplateEntity } from '../template/template.entity.js';
import { ActionEntity } from './action.entity.js';

export type ActionDto = ActionData & {
  id: number;
  extension: number[];
  customField: (ActionData['customField'][number] & { name: string; customFieldType: number })[];
  dateCreate: string;
};

@Injectable()
export class ActionService extends SubjectCrud<ActionEntity, z.output<typeof actionSchema>, ActionDto> {
  private readonly fields: TenantRepository<CustomFieldEntity>;
  private readonly mailTemplates: TenantRepository<MailTemplateEntity>;
  private readonly images: TenantRepository<ImageEntity>;

  constructor(
    @InjectRepository(ActionEntity) repo: Repository<ActionEntity>,
    @InjectRepository(CustomFieldEntity) fields: Repository<CustomFieldEntity>,
    @InjectRepository(MailTemplateEntity) mailTemplates: Repository<MailTemplateEntity>,
    @InjectRepository(ImageEntity) images: Repository<ImageEntity>,
    @InjectRepository(AdminUserEntity) private readonly users: Repository<AdminUserEntity>,
    private readonly tokens: TokenService,
  ) {
    super(repo);
    this.fields = new TenantRepository(fields);
    this.mailTemplates = new TenantRepository(mailTemplates);
    this.images = new TenantRepository(images);
  }

  protected async apply(row: ActionEntity, input: z.output<typeof actionSchema>): Promise<void> {
    await assertOwned(
      this.fields,
      input.customField.map((f) => f.id),
      'customField',
    );
    await assertOwned(this.mailTemplates, [input.afterMailTemplateId], 'afterMailTemplateId');
    await assertOwned(this.images, [input.previewData.image], 'previewData.image');
    Object.assign(row, {
      ...input,
      checkingAttributes: input.checkingAttributes.map((a) => ({ ...a, id: a.id || randomUUID().slice(0, 8) })),
    });
    row.extension ??= [];
  }

  protected toDto(row: ActionEntity, fields = new Map<number, CustomFieldEntity>()): ActionDto {
    return {
      id: row.id,
      name: row.name,
      dateFrom: row.dateFrom,
      dateTo: row.dateTo,
      multiDay: row.multiDay,
      days: row.days,
      afterMailTemplateId: row.afterMailTemplateId,
      isCredit: row.isCredit,
      withPhoto: row.withPhoto,
      requirePhoto: row.requirePhoto,
      smartBc: row.smartBc,
      customField: row.customField.map((f) => ({
        ...f,
        name: fields.get(f.id)?.name ?? '',
        customFieldType: fields.get(f.id)?.customFieldType ?? 1,
      })),
      textOnline: row.textOnline,
      textAfterAdd: row.textAfterAdd,
      checkingAttributes: row.checkingAttributes as ActionData['checkingAttributes'],
      extension: row.extension,
      previewData: row.previewData,
      dateCreate: row.createdAt.toISOString(),
    };
  }

  protected override async toDtos(rows: ActionEntity[]): Promise<ActionDto[]> {
    const fields = new Map((await this.fields.find()).map((f) => [f.id, f]));
    return rows.map((r) => this.toDto(r, fields));
  }

  protected override order() {
    return { dateFrom: 'DESC' as const, id: 'DESC' as const };
  }

  /** The current action of the top-bar switcher, remembered per user (spec §2, lastAction). */
  async setCurrent(auth: AdminAuth, actionId: number | null): Promise<{ lastAction: number | null }> {
    await assertOwned(this.scoped, [actionId], 'actionId');
    await this.users.update({ id: auth.user.id }, { lastActionId: actionId });
    await this.tokens.principalChanged('admin', auth.user.id);
    return { lastAction: actionId };
  }
}
