import { PassThrough, Readable } from 'node:stream';
import {
  type AccreditationFilter,
  checkFieldValue,
  fieldValueText,
  type ImportRowCode,
  imageNameKey,
  importRowSchema,
  type importSchema,
  isImageFileName,
  REQUIRED,
} from '@accredo/domain';
import { translate } from '@accredo/i18n';
import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import ExcelJS from 'exceljs';
import { type DataSource, In, type Repository } from 'typeorm';
import type { z } from 'zod';
import { AppError } from '../../common/app-error.js';
import { applyGroupDefaults } from '../action-extension/extension-core.js';
import { randomCode } from '../../common/crypto.js';
import { currentSubjectId, TenantRepository } from '../../database/tenant.js';
import { ActionEntity } from '../action/action.entity.js';
import { GroupEntity } from '../groups/group.entity.js';
import { ZoneEntity } from '../zone/zone.entity.js';
import {
  AccreditationEntity,
  AccreditationGroupEntity,
  AccreditationValueEntity,
  AccreditationZoneEntity,
  searchText,
} from './accreditation.entity.js';
import { AccreditationImagesService } from './accreditation-images.service.js';
import { type ActionField, AccreditationService } from './accreditation.service.js';

const FIXED = ['firstname', 'lastname', 'email', 'group', 'zones', 'bc'] as const;
/**
 * The optional photo column (the photo's file name) comes last, after the user fields, so a sheet
 * made from an older template (without it) still reads the same.
 */
const PHOTO_COLUMN = 'photo';
const MAX_ERRORS = 500;
export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The text of a cell whatever exceljs made of it (rich text, hyperlink, formula result, date, number). */
function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === 'object') {
    if ('richText' in value)
      return value.richText
        .map((r) => r.text)
        .join('')
        .trim();
    if ('text' in value) return String(value.text).trim();
    if ('result' in value) return cellText(value.result as ExcelJS.CellValue);
    return '';
  }
  return String(value).trim();
}

/** A spreadsheet cell from a user field's text (import), by the field's type. */
function parseCell(field: ActionField, text: string): unknown {
  if (!text) return null;
  switch (field.customFieldType) {
    case 2:
      return Number(text.replace(',', '.'));
    case 3:
      return text
        .split(/[,;]/)
        .map((v) => v.trim())
        .filter(Boolean)
        .map((v) => field.options.find((o) => o.value === v)?.id ?? `?${v}`);
    case 4:
      return field.options.find((o) => o.value === text)?.id ?? `?${text}`;
    case 5: {
      const [street = '', city = '', zip = ''] = text.split(',').map((p) => p.trim());
      return { street, city, zip };
    }
    case 7:
      return ['1', 'ano', 'áno', 'yes', 'ja', 'true', 'x'].includes(text.toLowerCase());
    default:
      return text;
  }
}

/**
 * The row code of an issue of `importRowSchema` (the person and the code, checked by the same
 * schema as `POST user`): empty, or there but not valid (too long, not an e-mail, a bad code).
 */
const PERSON_ROW_CODE: Record<string, { empty: ImportRowCode; invalid: ImportRowCode }> = {
  firstname: { empty: 'EMPTY_FIRSTNAME_ON_ROW_', invalid: 'FIRSTNAME_INVALID_ON_ROW_' },
  lastname: { empty: 'EMPTY_LASTNAME_ON_ROW_', invalid: 'LASTNAME_INVALID_ON_ROW_' },
  email: { empty: 'EMPTY_EMAIL_ON_ROW_', invalid: 'EMAIL_INVALID_ON_ROW_' },
  bc: { empty: 'BC_INVALID_ON_ROW_', invalid: 'BC_INVALID_ON_ROW_' },
};

const ROW_CODE_OF: Record<string, ImportRowCode> = {
  'basics.requireField': 'CUSTOM_FIELD_MANDATORY_ON_ROW_',
  'basics.numberInvalid': 'NUMBER_FORMAT_INVALID_ON_ROW_',
  'accreditation.addressInvalid': 'ADDRESS_INVALID_ON_ROW_',
};

/** The spreadsheet's name of a column: A, B, …, Z, AA, … */
export function columnLetter(index: number): string {
  let n = index + 1;
  let out = '';
  while (n > 0) {
    out = String.fromCharCode(65 + ((n - 1) % 26)) + out;
    n = Math.floor((n - 1) / 26);
  }
  return out;
}

/**
 * The header row must name the action's user fields where the template puts them: a sheet made
 * from another action's template, or from this one before a field was added, would otherwise put
 * values into the wrong fields without a word. The fixed columns' titles are free (they are in the
 * language of whoever downloaded the template).
 */
function checkHeader(cells: string[], fields: { name: string }[]): void {
  fields.forEach((field, i) => {
    const at = FIXED.length + i;
    const found = (cells[at] ?? '').trim();
    if (found.toLowerCase() !== field.name.trim().toLowerCase())
      throw new AppError('IMPORT_COLUMNS_MISMATCH', { column: columnLetter(at), expected: field.name, found });
  });
}

/**
 * Spreadsheet import and export of accreditations (spec §5 Import, §7, §8 Import codes). The import
 * streams the sheet, checks every row, and writes all rows in one transaction or none at all.
 */
@Injectable()
export class AccreditationFilesService {
  private readonly actions: TenantRepository<ActionEntity>;
  private readonly groups: TenantRepository<GroupEntity>;
  private readonly zones: TenantRepository<ZoneEntity>;
  private readonly scoped: TenantRepository<AccreditationEntity>;

  constructor(
    @InjectRepository(ActionEntity) actions: Repository<ActionEntity>,
    @InjectRepository(GroupEntity) groups: Repository<GroupEntity>,
    @InjectRepository(ZoneEntity) zones: Repository<ZoneEntity>,
    @InjectRepository(AccreditationEntity) repo: Repository<AccreditationEntity>,
    @InjectDataSource() private readonly ds: DataSource,
    private readonly accreditations: AccreditationService,
    private readonly photos: AccreditationImagesService,
  ) {
    this.actions = new TenantRepository(actions);
    this.groups = new TenantRepository(groups);
    this.zones = new TenantRepository(zones);
    this.scoped = new TenantRepository(repo);
  }

  private async action(id: number): Promise<ActionEntity> {
    const action = await this.actions.findOne({ id });
    if (!action) throw new AppError('ACTION_DOESNT_EXIST');
    return action;
  }

  /** The import template: the fixed columns, then one per user field of the action, in order. */
  async template(actionId: number, language: string): Promise<{ file: Buffer; name: string }> {
    const action = await this.action(actionId);
    const fields = await this.accreditations.actionFields(action);
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('import');
    ws.addRow([
      ...FIXED.map((c) => translate(language, `accreditationImport.column.${c}`)),
      ...fields.map((f) => f.name),
      translate(language, `accreditationImport.column.${PHOTO_COLUMN}`),
    ]);
    ws.getRow(1).font = { bold: true };
    ws.columns.forEach((c) => {
      c.width = 22;
    });
    return { file: Buffer.from(await wb.xlsx.writeBuffer()), name: `import-${action.id}.xlsx` };
  }

  async import(input: z.output<typeof importSchema>): Promise<{ imported: number }> {
    const action = await this.action(input.actionId);
    // spec §5 Import: extensionImportType (1 manual, 2 from the group) is required when the action has extensions
    if ((action.extension ?? []).length && !input.extensionImportType)
      throw AppError.validation([{ path: 'extensionImportType', key: 'basics.requireField' }]);
    const match = /^(?:data:[\w/.+-]*;base64,)?([A-Za-z0-9+/=\s]+)$/.exec(input.dataFile);
    if (!match) throw new AppError('DATA_BASE64_INVALID');
    const data = Buffer.from(match[1].replace(/\s+/g, ''), 'base64');
    // An .xlsx is a zip: anything else (a renamed text file, an old .xls) is refused up front.
    if (data.length < 4 || data.readUInt32LE(0) !== 0x04034b50) throw new AppError('INVALID_IMPORT_FILE_FORMAT');

    const fields = await this.accreditations.actionFields(action);
    const groups = new Map(
      (await this.groups.find({ where: { actionId: action.id } })).map((g) => [g.name.toLowerCase(), g]),
    );
    const zones = new Map(
      (await this.zones.find({ where: { actionId: action.id } })).map((z) => [z.name.toLowerCase(), z]),
    );
    const existingEmails = new Set(
      (await this.scoped.find({ where: { actionId: action.id }, select: { email: true, subjectId: true } })).map(
        (r) => r.email,
      ),
    );

    type Row = {
      line: number;
      firstname: string;
      lastname: string;
      email: string;
      groupId: number | null;
      zoneIds: number[];
      bc: string | null;
      imageName: string | null;
      values: Record<string, unknown>;
      texts: { fieldId: number; value: string }[];
    };
    const rows: Row[] = [];
    const errors: { row: number; code: ImportRowCode }[] = [];
    const seenEmails = new Set<string>();
    const wantedCodes: string[] = [];
    const fail = (row: number, code: ImportRowCode) => {
      if (errors.length < MAX_ERRORS) errors.push({ row, code });
    };

    try {
      const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from(data), {
        entries: 'emit',
        sharedStrings: 'cache',
        worksheets: 'emit',
      });
      let sheetDone = false;
      for await (const sheet of reader) {
        if (sheetDone) break;
        sheetDone = true;
        for await (const row of sheet as AsyncIterable<ExcelJS.Row>) {
          const cells = (row.values as ExcelJS.CellValue[]).slice(1).map(cellText);
          if (row.number === 1) {
            checkHeader(cells, fields);
            continue;
          }
          if (cells.every((c) => !c)) continue;
          const [firstnameCell = '', lastnameCell = '', emailCell = '', groupName = '', zoneNames = '', bcCell = ''] =
            cells;
          const line = row.number;
          const before = errors.length;
          const person = importRowSchema.safeParse({
            firstname: firstnameCell,
            lastname: lastnameCell,
            email: emailCell,
            bc: bcCell,
          });
          // one code per field, from its first issue (an empty e-mail is also not an address)
          const failed = new Map<string, ImportRowCode>();
          for (const issue of person.error?.issues ?? []) {
            const field = String(issue.path[0]);
            const codes = PERSON_ROW_CODE[field];
            if (codes && !failed.has(field))
              failed.set(field, issue.message === REQUIRED ? codes.empty : codes.invalid);
          }
          for (const code of failed.values()) fail(line, code);
          const firstname = person.data?.firstname ?? firstnameCell;
          const lastname = person.data?.lastname ?? lastnameCell;
          const email = person.data?.email ?? emailCell.toLowerCase();
          const bc = person.data?.bc ?? null;
          const emailValid = !person.error?.issues.some((i) => i.path[0] === 'email');
          if (emailValid && (existingEmails.has(email) || seenEmails.has(email))) fail(line, 'EMAIL_EXIST_ON_ROW_');
          const group = groupName ? groups.get(groupName.toLowerCase()) : undefined;
          if (groupName && !group) fail(line, 'GROUP_INVALID_ON_ROW_');
          let zoneIds: number[] = [];
          if (input.zonesImportType === 2) zoneIds = group?.zoneIds ?? [];
          else {
            for (const name of zoneNames
              .split(/[,;]/)
              .map((z) => z.trim())
              .filter(Boolean)) {
              const zone = zones.get(name.toLowerCase());
              if (zone) zoneIds.push(zone.id);
              else fail(line, 'ZONE_DOESNT_EXIST_ON_ROW_');
            }
          }
          const photoAt = FIXED.length + fields.length;
          if (cells.length > photoAt + 1 && cells.slice(photoAt + 1).some(Boolean)) {
            fail(line, 'CUSTOM_FIELD_DOESNT_EXIST_ON_ROW_');
          }
          // A photo name that can never be among the uploaded images (not .png/.jpg/.jpeg/.gif, a
          // folder in it) is refused now; a good name the image import has not received yet is
          // not an error: the row waits for its photo (sheet first, images second).
          const imageName = cells[photoAt] ?? '';
          if (imageName && !isImageFileName(imageName)) fail(line, 'IMAGE_NAME_NOT_EXIST_ON_ROW_');
          const values: Record<string, unknown> = {};
          const texts: Row['texts'] = [];
          fields.forEach((field, i) => {
            const checked = checkFieldValue(field, parseCell(field, cells[FIXED.length + i] ?? ''));
            if ('error' in checked) fail(line, ROW_CODE_OF[checked.error] ?? 'INVALID_CUSTOM_FIELD_VALUE_ON_ROW_');
            else {
              values[field.id] = checked.value;
              const text = fieldValueText(field, checked.value);
              if (text) texts.push({ fieldId: field.id, value: text.slice(0, 500) });
            }
          });
          seenEmails.add(email);
          if (bc) wantedCodes.push(bc);
          if (errors.length === before) {
            rows.push({
              line,
              firstname,
              lastname,
              email,
              groupId: group?.id ?? null,
              zoneIds,
              bc,
              imageName: imageName || null,
              values,
              texts,
            });
          }
        }
      }
    } catch (err) {
      if (err instanceof AppError) throw err;
      throw new AppError('INVALID_IMPORT_FILE_FORMAT');
    }
    if (rows.length === 0 && errors.length === 0) throw new AppError('IMPORT_FILE_EMPTY');

    // Barcodes given in the file must be new to the whole system (spec §8 BC_EXIST_).
    if (wantedCodes.length) {
      const taken = new Set<string>();
      for (let i = 0; i < wantedCodes.length; i += 1000) {
        const found = await this.ds
          .getRepository(AccreditationEntity)
          .find({ where: { bc: In(wantedCodes.slice(i, i + 1000)) }, select: { bc: true } });
        for (const f of found) taken.add(f.bc);
      }
      const inFile = new Set<string>();
      for (const r of rows) {
        if (r.bc && (taken.has(r.bc) || inFile.has(r.bc))) fail(r.line, 'BC_EXIST_');
        if (r.bc) inFile.add(r.bc);
      }
    }
    if (errors.length) throw new AppError('IMPORT_FAILED', { rows: errors.sort((a, b) => a.row - b.row) });

    // Photos uploaded before the sheet (images first) become the rows' photos in the same transaction.
    const kept = await this.photos.keptPhotos(
      action.id,
      rows.flatMap((r) => (r.imageName ? [imageNameKey(r.imageName)] : [])),
    );

    const now = new Date();
    const subjectId = currentSubjectId();
    await this.ds.transaction(async (m) => {
      const max = await m
        .getRepository(AccreditationEntity)
        .createQueryBuilder('a')
        .select('MAX(a.customId)', 'max')
        .where('a.actionId = :actionId', { actionId: action.id })
        .getRawOne<{ max: number | null }>();
      let next = Number(max?.max ?? 0) + 1;
      for (let i = 0; i < rows.length; i += 200) {
        const chunk = rows.slice(i, i + 200);
        const result = await m.getRepository(AccreditationEntity).insert(
          chunk.map((r) => {
            const bc = r.bc ?? randomCode(16);
            return {
              subjectId,
              actionId: action.id,
              customId: next++,
              firstname: r.firstname,
              lastname: r.lastname,
              email: r.email,
              search: searchText({ ...r, bc }),
              bc,
              days: [],
              fieldValues: r.values,
              imageId: r.imageName ? (kept.get(imageNameKey(r.imageName))?.imageId ?? null) : null,
              imageName: r.imageName,
              printCount: 0,
              credit: null,
              isUnlimited: false,
              source: 'admin',
              createdAt: now,
              updatedAt: now,
            };
          }) as never,
        );
        const ids = result.identifiers.map((x) => Number(x.id));
        const groupLinks = chunk.flatMap((r, k) =>
          r.groupId ? [{ accreditationId: ids[k], groupId: r.groupId }] : [],
        );
        const zoneLinks = chunk.flatMap((r, k) =>
          [...new Set(r.zoneIds)].map((zoneId) => ({ accreditationId: ids[k], zoneId })),
        );
        const valueRows = chunk.flatMap((r, k) =>
          r.texts.map((t) => ({ accreditationId: ids[k], actionId: action.id, ...t })),
        );
        if (groupLinks.length) await m.getRepository(AccreditationGroupEntity).insert(groupLinks);
        // extensionImportType 2: each person gets their group's meal and parking defaults (issue 14)
        if (input.extensionImportType === 2)
          await applyGroupDefaults(
            this.ds,
            m,
            subjectId,
            groupLinks.map((l) => ({ accreditationId: l.accreditationId, actionId: action.id, groupIds: [l.groupId] })),
          );
        if (zoneLinks.length) await m.getRepository(AccreditationZoneEntity).insert(zoneLinks);
        for (let j = 0; j < valueRows.length; j += 500)
          await m.getRepository(AccreditationValueEntity).insert(valueRows.slice(j, j + 500));
      }
      await this.photos.consumeKept(
        m,
        [...kept.values()].map((k) => k.id),
      );
    });
    return { imported: rows.length };
  }

  /**
   * The selection or the whole filter as .xlsx with every user field, streamed. Values are written
   * as string cells (exceljs writes a formula only for {formula} values), so a cell starting with
   * = + - @ is shown as text, never run.
   * - `readable` (the default): what a person reads — the user fields' labels in the caller's
   *   language, yes/no, day names, every group and zone;
   * - `import`: the machine form, laid out as the import template (its columns and value forms,
   *   the first group), so the file can be edited and imported again.
   */
  async export(
    actionId: number,
    ids: number[],
    language: string,
    form: 'readable' | 'import' = 'readable',
  ): Promise<{ file: Buffer; name: string }> {
    const action = await this.action(actionId);
    const fields = await this.accreditations.actionFields(action);
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (c: Buffer) => chunks.push(c));
    const done = new Promise<void>((resolve, reject) => {
      out.on('end', () => resolve());
      out.on('error', reject);
    });
    const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useSharedStrings: false });
    const column = (c: string) => translate(language, `accreditationImport.column.${c}`);
    const inLanguage = (text: Record<string, string> | null | undefined) =>
      text?.[language]?.trim() || text?.cs?.trim() || '';
    const ws = wb.addWorksheet(form === 'import' ? 'import' : 'accreditations');
    if (form === 'import')
      ws.addRow([...FIXED.map(column), ...fields.map((f) => f.name), column(PHOTO_COLUMN)]).commit();
    else
      ws.addRow([
        ...['customId', 'firstname', 'lastname', 'email', 'bc', 'groups', 'zones', 'days'].map(column),
        ...fields.map((f) => inLanguage(f.label) || f.name),
      ]).commit();
    const dayNames = new Map(action.days.map((d) => [d.id, inLanguage(d.name as Record<string, string>) || d.id]));
    const readable = (field: ActionField, value: unknown) =>
      field.customFieldType === 7 && value !== null && value !== undefined
        ? translate(language, value ? 'basics.yes' : 'basics.no')
        : fieldValueText(field, value);
    for (let i = 0; i < ids.length; i += 500) {
      const page = await this.accreditations.byIds(ids.slice(i, i + 500));
      for (const a of page) {
        const values = new Map(a.customField.map((c) => [c.id, c.value]));
        const zones = a.zones.map((z) => z.name).join(', ');
        const row =
          form === 'import'
            ? ws.addRow([
                a.firstname,
                a.lastname,
                a.email,
                a.groups[0]?.name ?? '',
                zones,
                a.bc,
                ...fields.map((f) => fieldValueText(f, values.get(f.id))),
                '',
              ])
            : ws.addRow([
                a.customId,
                a.firstname,
                a.lastname,
                a.email,
                a.bc,
                a.groups.map((g) => g.name).join(', '),
                zones,
                a.days.map((d) => dayNames.get(d) ?? d).join(', '),
                ...fields.map((f) => readable(f, values.get(f.id))),
              ]);
        row.commit();
      }
    }
    ws.commit();
    await wb.commit();
    await done;
    return {
      file: Buffer.concat(chunks),
      name: form === 'import' ? `import-${action.id}.xlsx` : `accreditations-${action.id}.xlsx`,
    };
  }
}

export type { AccreditationFilter };
