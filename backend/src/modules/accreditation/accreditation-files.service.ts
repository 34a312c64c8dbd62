import { PassThrough, Readable } from 'node:stream';
import {
  type AccreditationFilter,
  checkFieldValue,
  fieldValueText,
  type ImportRowCode,
  imageNameKey,
  importRowSchema,
  importSchema,
  isImageFileName,
  REQUIRED,
  subjectLanguageError,
} from '@accredo/domain';
import { translate } from '@accredo/i18n';
import { Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import type { FastifyRequest } from 'fastify';
import type { Multipart } from '@fastify/multipart';
import type { DataSource, Repository } from 'typeorm';
import type { z } from 'zod';
import { AppError } from '../../common/app-error.js';
import { loadExcel } from '../../common/lazy-modules.js';
import { collectAfter } from '../../common/memory.js';
import { toFieldErrors, ZodPipe } from '../../common/zod.js';
import { currentSubjectId, TenantRepository } from '../../database/tenant.js';
import { ActionEntity } from '../action/action.entity.js';
import { GroupEntity } from '../groups/group.entity.js';
import { SubjectEntity } from '../subject/subject.entity.js';
import { ZoneEntity } from '../zone/zone.entity.js';
import {
  IMPORT_MAX_BYTES,
  importReader,
  isOle2,
  importSlots,
  isZip,
  peek,
  type ReadyRow,
  runWrite,
  sheetRows,
  randomCodes,
  Spill,
  spillRow,
  stopParser,
  TextSet,
  type WriteInput,
  WriteAhead,
  warmParser,
  writeCore,
} from './accreditation-import.js';
import { AccreditationImagesService } from './accreditation-images.service.js';
import { type ActionField, AccreditationService } from './accreditation.service.js';

const FIXED = ['firstname', 'lastname', 'email', 'group', 'zones', 'bc'] as const;
/**
 * The optional photo column (the photo's file name) comes last, after the user fields, so a sheet
 * made from an older template (without it) still reads the same.
 */
const PHOTO_COLUMN = 'photo';
/**
 * The optional language column (issue 15: the language every mail to the person is written in,
 * cs, sk, en or de, one the subject offers; empty: cs) comes after the photo, for the same reason.
 */
const LANGUAGE_COLUMN = 'language';
const MAX_ERRORS = 500;
export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** The import's options (spec §5 Import) without the file: the JSON body's schema less `dataFile`. */
export const importOptionsSchema = importSchema.omit({ dataFile: true });
export type ImportOptions = z.output<typeof importOptionsSchema>;

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
  language: { empty: 'LANGUAGE_INVALID_ON_ROW_', invalid: 'LANGUAGE_INVALID_ON_ROW_' },
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

/** The first import's parser is started this long after the server's start (not during it). */
const WARM_PARSER_AFTER_MS = 5_000;

/**
 * Spreadsheet import and export of accreditations (spec §5 Import, §7, §8 Import codes). The import
 * streams the sheet, checks every row, and writes all rows in one transaction or none at all.
 */
@Injectable()
export class AccreditationFilesService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly actions: TenantRepository<ActionEntity>;
  private readonly groups: TenantRepository<GroupEntity>;
  private readonly zones: TenantRepository<ZoneEntity>;
  /** the timer that starts the first import's parser */
  private warming?: NodeJS.Timeout;

  constructor(
    @InjectRepository(ActionEntity) actions: Repository<ActionEntity>,
    @InjectRepository(GroupEntity) groups: Repository<GroupEntity>,
    @InjectRepository(ZoneEntity) zones: Repository<ZoneEntity>,
    @InjectDataSource() private readonly ds: DataSource,
    private readonly accreditations: AccreditationService,
    private readonly photos: AccreditationImagesService,
  ) {
    this.actions = new TenantRepository(actions);
    this.groups = new TenantRepository(groups);
    this.zones = new TenantRepository(zones);
  }

  onApplicationBootstrap(): void {
    this.warming = setTimeout(warmParser, WARM_PARSER_AFTER_MS);
    this.warming.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearTimeout(this.warming);
    await stopParser();
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
    const ExcelJS = await loadExcel();
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('import');
    ws.addRow([
      ...FIXED.map((c) => translate(language, `accreditationImport.column.${c}`)),
      ...fields.map((f) => f.name),
      translate(language, `accreditationImport.column.${PHOTO_COLUMN}`),
      translate(language, `accreditationImport.column.${LANGUAGE_COLUMN}`),
    ]);
    ws.getRow(1).font = { bold: true };
    ws.columns.forEach((c) => {
      c.width = 22;
    });
    return { file: Buffer.from(await wb.xlsx.writeBuffer()), name: `import-${action.id}.xlsx` };
  }

  /** The action of an import and the import types it needs (spec §5 Import). */
  private async importAction(input: ImportOptions): Promise<ActionEntity> {
    const action = await this.action(input.actionId);
    // an archived action takes no new people (issue 15)
    if (action.archivedAt) throw new AppError('ACTION_ARCHIVED');
    // spec §5 Import: extensionImportType (1 manual, 2 from the group) is required when the action has extensions
    if ((action.extension ?? []).length && !input.extensionImportType)
      throw AppError.validation([{ path: 'extensionImportType', key: 'basics.requireField' }]);
    return action;
  }

  /** POST user/import (spec §7): the sheet as a base64 data URL in the JSON body. */
  async import(input: z.output<typeof importSchema>): Promise<{ imported: number }> {
    const action = await this.importAction(input);
    const match = /^(?:data:[\w/.+-]*;base64,)?([A-Za-z0-9+/=\s]+)$/.exec(input.dataFile);
    if (!match) throw new AppError('DATA_BASE64_INVALID');
    const data = Buffer.from(match[1].replace(/\s+/g, ''), 'base64');
    // An .xlsx is a zip: anything else (a renamed text file, an old .xls) is refused up front.
    if (!isZip(data)) throw new AppError('INVALID_IMPORT_FILE_FORMAT');
    return this.importSheet(action, input, Readable.from([data]));
  }

  /**
   * POST user/import/file (multipart/form-data): the options as fields first (actionId,
   * zonesImportType, extensionImportType), checked by the JSON route's schema, then the file as
   * `dataFile`, read as it streams in.
   */
  async importMultipart(req: FastifyRequest): Promise<{ imported: number }> {
    if (!req.isMultipart()) throw new AppError('UNSUPPORTED_MEDIA_TYPE');
    const values: Record<string, unknown> = {};
    let parts: AsyncIterableIterator<Multipart>;
    try {
      parts = req.parts({ limits: { fileSize: IMPORT_MAX_BYTES, files: 1 } });
    } catch {
      throw new AppError('BAD_REQUEST');
    }
    // busboy's own errors (a malformed or cut-off body) are answered 400 by ErrorFilter
    // (malformedMultipart), never an unexpected 500 (bench/probe.mjs)
    for await (const part of parts) {
      if (part.type === 'field') {
        // the form's numbers arrive as text; the schema of the JSON body takes numbers
        const text = String(part.value ?? '').trim();
        values[part.fieldname] = /^\d{1,10}$/.test(text) ? Number(text) : text;
        continue;
      }
      if (part.fieldname !== 'dataFile') {
        part.file.resume();
        continue;
      }
      let options: ImportOptions;
      try {
        options = new ZodPipe(importOptionsSchema).transform(values);
      } catch (err) {
        part.file.resume();
        throw err;
      }
      return await this.importUpload(options, part.file);
    }
    const missing = importOptionsSchema.safeParse(values);
    throw AppError.validation([
      ...(missing.success ? [] : toFieldErrors(missing.error)),
      { path: 'dataFile', key: 'accreditationImport.chooseFile' },
    ]);
  }

  /**
   * The sheet streamed from a multipart upload, straight into the reader,
   * never held whole. Over `IMPORT_MAX_BYTES`: 413 IMPORT_FILE_TOO_LARGE (whatever was read is
   * thrown away); an old binary .xls (by its first bytes): IMPORT_FILE_XLS, "save it as .xlsx".
   */
  async importUpload(input: ImportOptions, file: Readable): Promise<{ imported: number }> {
    let tooLarge = false;
    file.once('limit', () => {
      tooLarge = true;
    });
    try {
      const action = await this.importAction(input);
      const { head, stream } = await peek(file, 8);
      if (isOle2(head)) throw new AppError('IMPORT_FILE_XLS');
      if (!isZip(head)) throw new AppError('INVALID_IMPORT_FILE_FORMAT');
      return await this.importSheet(action, input, stream, () => {
        if (tooLarge) throw new AppError('IMPORT_FILE_TOO_LARGE', { limitMb: IMPORT_MAX_BYTES / 1024 / 1024 });
      });
    } catch (err) {
      if (tooLarge) throw new AppError('IMPORT_FILE_TOO_LARGE', { limitMb: IMPORT_MAX_BYTES / 1024 / 1024 });
      throw err;
    } finally {
      // whatever is left of the upload flows on and is dropped, so the answer reaches the client
      file.resume();
    }
  }

  /**
   * Both import routes: phase 1 reads and checks the sheet as it streams in (rows that pass go to
   * a spill file, a batch at a time), phase 2 writes them in one transaction when no row failed
   * (accreditation-import.ts). `complete` throws when the stream was cut short (the size limit).
   */
  private async importSheet(
    action: ActionEntity,
    input: ImportOptions,
    source: Readable,
    complete: () => void = () => {},
  ): Promise<{ imported: number }> {
    // one of the server's import slots (IMPORT_SLOTS): the sheet is read only once it has one
    const release = await importSlots.acquire();
    try {
      return await this.readAndWrite(action, input, source, complete);
    } finally {
      release();
    }
  }

  private async readAndWrite(
    action: ActionEntity,
    input: ImportOptions,
    source: Readable,
    complete: () => void,
  ): Promise<{ imported: number }> {
    const fields = await this.accreditations.actionFields(action);
    const groups = new Map(
      (await this.groups.find({ where: { actionId: action.id } })).map((g) => [g.name.toLowerCase(), g]),
    );
    const zones = new Map(
      (await this.zones.find({ where: { actionId: action.id } })).map((z) => [z.name.toLowerCase(), z]),
    );
    const photoAt = FIXED.length + fields.length;
    const multiLanguage = (await this.ds.getRepository(SubjectEntity).findOneBy({ id: action.subjectId }))
      ?.multiLanguage;

    /** A row read and checked on its own; the checks against the database come per batch. */
    type Pending = ReadyRow & {
      errs: ImportRowCode[];
      /** where EMAIL_EXIST_ON_ROW_ goes when the database has the e-mail (null: not to check) */
      emailAt: number | null;
    };
    const errors: { row: number; code: ImportRowCode }[] = [];
    const seenEmails = new TextSet();
    const fileCodes = new Set<string>();
    const consumed = new Set<number>();
    const spill = new Spill();
    const read = importReader(this.ds);
    const write: WriteInput = {
      subjectId: currentSubjectId(),
      actionId: action.id,
      groupDefaults: input.extensionImportType === 2,
      consumedImports: [],
      now: new Date(),
    };
    // MariaDB: each batch written as soon as it is checked (WriteAhead), in one transaction
    const ahead = this.ds.options.type === 'mariadb' ? new WriteAhead(this.ds, write) : null;
    let pending: Pending[] = [];
    let rowsRead = 0;

    /** The database's part of the checks for a batch, then its rows into the spill file (or errors). */
    const flush = async () => {
      const batch = pending;
      pending = [];
      if (!batch.length) return;
      const emails = batch.filter((r) => r.emailAt !== null).map((r) => r.email);
      const existing = new Set<string>(
        emails.length
          ? (
              (await read(
                `SELECT email FROM accreditation WHERE actionId = ? AND email IN (${emails.map(() => '?').join(', ')})`,
                [action.id, ...emails],
              )) as { email: string }[]
            ).map((r) => r.email)
          : [],
      );
      const codes = batch.flatMap((r) => (r.bc ? [r.bc] : []));
      // Barcodes given in the file must be new to the whole system (spec §8 BC_EXIST_).
      const taken = new Set<string>(
        codes.length
          ? (
              (await read(`SELECT bc FROM accreditation WHERE bc IN (${codes.map(() => '?').join(', ')})`, [
                ...codes,
              ])) as { bc: string }[]
            ).map((r) => r.bc)
          : [],
      );
      for (const r of batch) {
        if (r.emailAt !== null && existing.has(r.email)) r.errs.splice(r.emailAt, 0, 'EMAIL_EXIST_ON_ROW_');
        // as before: a code is checked on rows without other errors, and in the file's order
        if (!r.errs.length && r.bc) {
          if (taken.has(r.bc) || fileCodes.has(r.bc)) r.errs.push('BC_EXIST_');
          fileCodes.add(r.bc);
        }
        for (const code of r.errs) if (errors.length < MAX_ERRORS) errors.push({ row: r.line, code });
      }
      if (errors.length) return; // nothing of a failed import is kept; the rest is only checked
      // Photos uploaded before the sheet (images first) become the rows' photos in the same transaction.
      const names = batch.flatMap((r) => (r.imageName ? [imageNameKey(r.imageName)] : []));
      const kept = names.length ? await this.photos.keptPhotos(action.id, names) : new Map<string, never>();
      for (const r of batch) {
        const photo = r.imageName ? kept.get(imageNameKey(r.imageName)) : undefined;
        if (photo) {
          r.imageId = photo.imageId;
          consumed.add(photo.id);
        }
      }
      const newCodes = randomCodes(batch.length, 16);
      const ready = batch.map((r, k) => spillRow(r, r.bc ?? newCodes[k]));
      spill.write(ready);
      await ahead?.add(ready);
    };

    try {
      try {
        // each parsed batch is checked and spilled at once (on SQLite without an await in between),
        // so its rows die young in the main thread's heap instead of being promoted to the old
        // generation while the next batch is parsed
        for await (const rows of sheetRows(source)) {
          for (const [number, cells] of rows) {
            if (number === 1) {
              checkHeader(cells, fields);
              continue;
            }
            if (cells.every((c) => !c)) continue;
            rowsRead++;
            pending.push(
              this.checkRow(number, cells, fields, groups, zones, input, seenEmails, photoAt, multiLanguage ?? false),
            );
          }
          await flush();
          if (errors.length >= MAX_ERRORS) break;
        }
        complete();
      } catch (err) {
        complete();
        if (err instanceof AppError) throw err;
        throw new AppError('INVALID_IMPORT_FILE_FORMAT');
      }
      if (errors.length) throw new AppError('IMPORT_FAILED', { rows: errors.sort((a, b) => a.row - b.row) });
      if (spill.count === 0) throw new AppError('IMPORT_FILE_EMPTY');

      write.consumedImports = [...consumed];
      const imported = (await ahead?.finish()) ?? (await runWrite(this.ds, (env) => writeCore(env, spill, write)));
      return { imported };
    } finally {
      // nothing of a failed import is kept (after a commit: nothing to roll back)
      await ahead?.abandon();
      spill.close();
      // a big sheet's garbage is collected once it is answered, not left for the next import
      collectAfter(rowsRead);
      // the next import's parser, started now that this one's write is done
      warmParser();
    }
  }

  /** The checks of one row that need no database (spec §8 row codes, in the order of old). */
  private checkRow(
    line: number,
    cells: string[],
    fields: ActionField[],
    groups: Map<string, GroupEntity>,
    zones: Map<string, ZoneEntity>,
    input: ImportOptions,
    seenEmails: TextSet,
    photoAt: number,
    multiLanguage: boolean,
  ) {
    const errs: ImportRowCode[] = [];
    const [firstnameCell = '', lastnameCell = '', emailCell = '', groupName = '', zoneNames = '', bcCell = ''] = cells;
    const person = importRowSchema.safeParse({
      firstname: firstnameCell,
      lastname: lastnameCell,
      email: emailCell,
      bc: bcCell,
      language: cells[photoAt + 1] ?? '',
    });
    // one code per field, from its first issue (an empty e-mail is also not an address)
    const failed = new Map<string, ImportRowCode>();
    for (const issue of person.error?.issues ?? []) {
      const field = String(issue.path[0]);
      const codes = PERSON_ROW_CODE[field];
      if (codes && !failed.has(field)) failed.set(field, issue.message === REQUIRED ? codes.empty : codes.invalid);
    }
    const language = person.data?.language;
    // the same rule as POST user and the online form: a language the subject offers
    if (!failed.has('language') && subjectLanguageError(language, multiLanguage))
      failed.set('language', 'LANGUAGE_INVALID_ON_ROW_');
    errs.push(...failed.values());
    const firstname = person.data?.firstname ?? firstnameCell;
    const lastname = person.data?.lastname ?? lastnameCell;
    const email = person.data?.email ?? emailCell.toLowerCase();
    const bc = person.data?.bc ?? null;
    const emailValid = !person.error?.issues.some((i) => i.path[0] === 'email');
    let emailAt: number | null = null;
    if (emailValid) {
      // twice in the file: now; already in the action: when the batch is checked (at this place)
      if (!seenEmails.add(email)) errs.push('EMAIL_EXIST_ON_ROW_');
      else emailAt = errs.length;
    }
    const group = groupName ? groups.get(groupName.toLowerCase()) : undefined;
    if (groupName && !group) errs.push('GROUP_INVALID_ON_ROW_');
    // an archived group is given to no one new, here as in the office and online (docs/archive.md)
    else if (group?.archivedAt) errs.push('GROUP_ARCHIVED_ON_ROW_');
    let zoneIds: number[] = [];
    if (input.zonesImportType === 2) zoneIds = group?.zoneIds ?? [];
    else {
      for (const name of zoneNames
        .split(/[,;]/)
        .map((z) => z.trim())
        .filter(Boolean)) {
        const zone = zones.get(name.toLowerCase());
        if (zone) zoneIds.push(zone.id);
        else errs.push('ZONE_DOESNT_EXIST_ON_ROW_');
      }
    }
    if (cells.length > photoAt + 2 && cells.slice(photoAt + 2).some(Boolean))
      errs.push('CUSTOM_FIELD_DOESNT_EXIST_ON_ROW_');
    // A photo name that can never be among the uploaded images (not .png/.jpg/.jpeg/.gif, a
    // folder in it) is refused now; a good name the image import has not received yet is
    // not an error: the row waits for its photo (sheet first, images second).
    const imageName = cells[photoAt] ?? '';
    if (imageName && !isImageFileName(imageName)) errs.push('IMAGE_NAME_NOT_EXIST_ON_ROW_');
    const values: Record<string, unknown> = {};
    const texts: ReadyRow['texts'] = [];
    fields.forEach((field, i) => {
      const checked = checkFieldValue(field, parseCell(field, cells[FIXED.length + i] ?? ''));
      if ('error' in checked) errs.push(ROW_CODE_OF[checked.error] ?? 'INVALID_CUSTOM_FIELD_VALUE_ON_ROW_');
      else {
        values[field.id] = checked.value;
        const text = fieldValueText(field, checked.value);
        if (text) texts.push({ fieldId: field.id, value: text.slice(0, 500) });
      }
    });
    return {
      line,
      firstname,
      lastname,
      email,
      groupId: group?.id ?? null,
      zoneIds,
      bc,
      imageName: imageName || null,
      imageId: null,
      language: language ?? 'cs',
      values,
      texts,
      errs,
      emailAt,
    };
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
    const ExcelJS = await loadExcel();
    const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useSharedStrings: false });
    const column = (c: string) => translate(language, `accreditationImport.column.${c}`);
    const inLanguage = (text: Record<string, string> | null | undefined) =>
      text?.[language]?.trim() || text?.cs?.trim() || '';
    const ws = wb.addWorksheet(form === 'import' ? 'import' : 'accreditations');
    if (form === 'import')
      ws.addRow([
        ...FIXED.map(column),
        ...fields.map((f) => f.name),
        column(PHOTO_COLUMN),
        column(LANGUAGE_COLUMN),
      ]).commit();
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
                a.language,
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
