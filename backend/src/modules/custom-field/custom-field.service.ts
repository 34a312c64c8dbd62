import { type CustomFieldDto, CUSTOM_FIELD_TYPES, type customFieldSchema } from '@accredo/domain';
import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import type { z } from 'zod';
import { AppError } from '../../common/app-error.js';
import { SubjectCrud, usedBy } from '../../common/crud.js';
import { AccreditationValueEntity } from '../accreditation/accreditation.entity.js';
import { ActionEntity } from '../action/action.entity.js';
import { CustomFieldEntity } from './custom-field.entity.js';

@Injectable()
export class CustomFieldService extends SubjectCrud<
  CustomFieldEntity,
  z.output<typeof customFieldSchema>,
  CustomFieldDto
> {
  constructor(@InjectRepository(CustomFieldEntity) repo: Repository<CustomFieldEntity>) {
    super(repo);
  }

  protected apply(row: CustomFieldEntity, input: z.output<typeof customFieldSchema>): void {
    row.name = input.name;
    row.label = input.label;
    row.tooltip = input.tooltip;
    row.customFieldType = input.customFieldType;
    // Options keep their ids across edits, so stored answers still point at them.
    row.options = input.options.map((o) => ({ id: o.id || randomUUID().slice(0, 8), value: o.value }));
  }

  /** A field an action asks for stays (409 naming the actions): its answers would vanish from their forms. */
  protected override async refuseDelete(row: CustomFieldEntity): Promise<void> {
    const actions = await this.scoped.repo.manager.find(ActionEntity, {
      where: { subjectId: row.subjectId },
      select: { id: true, name: true, customField: true },
    });
    const names = actions
      .filter((a) => (a.customField ?? []).some((f) => f.id === row.id))
      .map((a) => a.name?.cs || `#${a.id}`);
    if (names.length) throw new AppError('CUSTOM_FIELD_USED_BY_ACTIONS', usedBy(names));
  }

  /** Deletes an unused field with its search index rows. */
  override async remove(id: number): Promise<void> {
    const row = await this.scoped.get(id);
    await this.refuseDelete(row);
    await this.scoped.repo.manager.transaction(async (em) => {
      await em.delete(AccreditationValueEntity, { fieldId: row.id });
      await em.delete(CustomFieldEntity, { id: row.id, subjectId: row.subjectId });
    });
  }

  protected toDto(row: CustomFieldEntity): CustomFieldDto {
    const type = CUSTOM_FIELD_TYPES.find((t) => t.id === row.customFieldType) ?? CUSTOM_FIELD_TYPES[0];
    return {
      id: row.id,
      name: row.name,
      label: row.label,
      tooltip: row.tooltip,
      customFieldType: { id: type.id, code: type.code },
      options: row.options,
      placeholder: `{{custom_field.[${row.id}]}}`,
    };
  }

  types() {
    return CUSTOM_FIELD_TYPES.map((t) => ({ id: t.id, code: t.code }));
  }
}
