import { randomBytes } from 'node:crypto';
import {
  authorizationTypeOf,
  channelPasswordMissing,
  EXTERNAL_CODE_MAX_LENGTH,
  type ExternalCode,
  type ExternalCodeImportResult,
  type ExternalCodeSkipReason,
  type externalCodeImportSchema,
  type FieldError,
  normalizeCode,
  type WebChannel,
  type WebChannelData,
  type WebChannelListItem,
  type WebChannelSummary,
  wallClock,
  webChannelState,
} from '@accredo/domain';
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { type DataSource, type EntityManager, In, type Repository } from 'typeorm';
import type { z } from 'zod';
import { AppError } from '../../common/app-error.js';
import { archivedAtOf, setArchived } from '../../common/archive.js';
import { assertOwned } from '../../common/crud.js';
import { hashPassword } from '../../common/crypto.js';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { currentSubjectId, TenantRepository } from '../../database/tenant.js';
import { AccreditationEntity } from '../accreditation/accreditation.entity.js';
import { ActionEntity } from '../action/action.entity.js';
import { GroupEntity } from '../groups/group.entity.js';
import { ImageEntity } from '../image/image.entity.js';
import { TokenService } from '../session/token.service.js';
import { SubjectEntity } from '../subject/subject.entity.js';
import { MailTemplateEntity } from '../template/template.entity.js';
import {
  WebChannelCodeEntity,
  WebChannelCodeLogEntity,
  WebChannelEntity,
  WebChannelUserEntity,
} from './web-channel.entity.js';

type ImportInput = z.output<typeof externalCodeImportSchema>;

/** The public form's path of a channel (spec §2: /app/online/{id}). */
export const onlineLink = (channelKey: string) => `/app/online/${channelKey}`;

/** 128 random bits, URL-safe: a channel key nobody can guess from another. */
export const newChannelKey = () => randomBytes(16).toString('base64url');

const CSV_MAX_BYTES = 5 * 1024 * 1024;
const CHUNK = 500;

/**
 * Web channels of the admin application (spec §3 Web channel, §4, §5): the channel with its login
 * users and external codes saved together, the codes' CSV import (parsed only; the form merges
 * and saves) and export.
 */
@Injectable()
export class WebChannelService {
  private readonly scoped: TenantRepository<WebChannelEntity>;
  private readonly actions: TenantRepository<ActionEntity>;
  private readonly groups: TenantRepository<GroupEntity>;
  private readonly images: TenantRepository<ImageEntity>;
  private readonly mailTemplates: TenantRepository<MailTemplateEntity>;

  constructor(
    @InjectRepository(WebChannelEntity) private readonly repo: Repository<WebChannelEntity>,
    @InjectRepository(ActionEntity) actions: Repository<ActionEntity>,
    @InjectRepository(GroupEntity) groups: Repository<GroupEntity>,
    @InjectRepository(ImageEntity) images: Repository<ImageEntity>,
    @InjectRepository(MailTemplateEntity) mailTemplates: Repository<MailTemplateEntity>,
    @InjectRepository(SubjectEntity) private readonly subjects: Repository<SubjectEntity>,
    @InjectDataSource() private readonly ds: DataSource,
    private readonly tokens: TokenService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.scoped = new TenantRepository(repo);
    this.actions = new TenantRepository(actions);
    this.groups = new TenantRepository(groups);
    this.images = new TenantRepository(images);
    this.mailTemplates = new TenantRepository(mailTemplates);
  }

  // ---- read ----

  async list(actionId?: number): Promise<WebChannelListItem[]> {
    const rows = await this.scoped.find({
      where: actionId ? { actionId } : {},
      order: { id: 'ASC' },
    });
    const now = await this.now(currentSubjectId());
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      channelKey: r.channelKey,
      link: onlineLink(r.channelKey),
      actionId: r.actionId,
      active: r.active,
      dateFrom: r.dateFrom,
      dateTo: r.dateTo,
      state: webChannelState(r, now),
      withAuthorization: r.withAuthorization,
      authorizationType: r.withAuthorization ? authorizationTypeOf(r) : null,
      archivedAt: archivedAtOf(r),
    }));
  }

  async get(id: number): Promise<WebChannel> {
    const row = await this.scoped.get(id);
    const [users, codes, image] = await Promise.all([
      this.ds.getRepository(WebChannelUserEntity).find({ where: { channelId: id }, order: { id: 'ASC' } }),
      this.ds.getRepository(WebChannelCodeEntity).find({ where: { channelId: id }, order: { id: 'ASC' } }),
      row.imageId ? this.images.findOne({ id: row.imageId }) : null,
    ]);
    const logs = new Map<number, WebChannelCodeLogEntity[]>();
    const used = codes.filter((c) => c.used > 0).map((c) => c.id);
    for (let i = 0; i < used.length; i += CHUNK) {
      for (const log of await this.ds
        .getRepository(WebChannelCodeLogEntity)
        .find({ where: { codeId: In(used.slice(i, i + CHUNK)) }, order: { id: 'ASC' } })) {
        logs.set(log.codeId, [...(logs.get(log.codeId) ?? []), log]);
      }
    }
    return {
      id: row.id,
      name: row.name,
      channelKey: row.channelKey,
      link: onlineLink(row.channelKey),
      state: webChannelState(row, await this.now(row.subjectId)),
      actionId: row.actionId,
      active: row.active,
      dateFrom: row.dateFrom,
      dateTo: row.dateTo,
      viewGroups: row.viewGroups,
      groupsSelectName: row.groupsSelectName,
      groupsId: row.groupsId,
      viewDays: row.viewDays,
      daysSelectName: row.daysSelectName,
      defaultDays: row.defaultDays,
      viewMealSelect: row.viewMealSelect,
      viewParkingSelect: row.viewParkingSelect,
      customNameFirstname: row.customNameFirstname,
      customNameLastname: row.customNameLastname,
      customNameEmail: row.customNameEmail,
      afterAdd: { action: row.afterAddAction === 2 ? 2 : 1 },
      mailTemplateId: row.mailTemplateId,
      customField: row.customField,
      withAuthorization: row.withAuthorization,
      byPassword: row.byPassword,
      byCode: row.byCode,
      authorizationType: authorizationTypeOf(row),
      authorizationText: row.authorizationText,
      hasPassword: Boolean(row.passwordHash),
      numberUseExtCode: row.numberUseExtCode,
      imageId: row.imageId,
      image: image ? { id: image.id, path: `/api/file/${image.fileKey}` } : null,
      users: users.map((u) => ({ id: u.id, login: u.login, active: u.active })),
      externalCode: codes.map(
        (c): ExternalCode => ({
          id: c.id,
          code: c.code,
          numberOfUse: c.numberOfUse,
          used: c.used,
          log: (logs.get(c.id) ?? []).map((l) => ({
            date: l.date.toISOString(),
            firstname: l.firstname,
            lastname: l.lastname,
            email: l.email,
          })),
        }),
      ),
      dateCreate: row.createdAt.toISOString(),
      archivedAt: archivedAtOf(row),
    };
  }

  /** POST web-channel/{id}/archive and /restore (issue 15): an archived channel's form is closed. */
  async archive(id: number, archived: boolean): Promise<WebChannel> {
    await setArchived(this.scoped, id, archived);
    return this.get(id);
  }

  /** The manage module's list of a subject's channels (across subjects: plain repository). */
  async manageList(subjectId: number): Promise<(WebChannelSummary & { link: string })[]> {
    const rows = await this.repo.find({ where: { subjectId }, order: { id: 'ASC' } });
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      channelKey: r.channelKey,
      authorizationType: r.withAuthorization ? authorizationTypeOf(r) : null,
      link: onlineLink(r.channelKey),
    }));
  }

  // ---- write ----

  async create(input: WebChannelData): Promise<WebChannel> {
    const now = new Date();
    const row = this.scoped.create({ channelKey: newChannelKey(), passwordHash: null, createdAt: now });
    const id = await this.save(row, input, []);
    return this.get(id);
  }

  /**
   * DELETE web-channel/{id} (issue 15): refused with 409 WEB_CHANNEL_HAS_REGISTRATIONS (how many)
   * while people registered through it — by the accreditation's channel, or for registrations
   * older than that column, by the log of its codes; deactivating it is the way to close it then.
   * Otherwise the channel goes with its login users, codes and their log.
   */
  async remove(id: number): Promise<void> {
    const row = await this.scoped.get(id);
    const direct = await this.ds.getRepository(AccreditationEntity).count({ where: { webChannelId: row.id } });
    const byCode: { n: number | string }[] = await this.ds.query(
      'SELECT COUNT(DISTINCT l.accreditationId) AS n FROM web_channel_code_log l JOIN web_channel_code c ON c.id = l.codeId JOIN accreditation a ON a.id = l.accreditationId WHERE c.channelId = ? AND (a.webChannelId IS NULL OR a.webChannelId <> ?)',
      [row.id, row.id],
    );
    const count = direct + Number(byCode[0]?.n ?? 0);
    if (count > 0) throw new AppError('WEB_CHANNEL_HAS_REGISTRATIONS', { count });
    await this.ds.transaction(async (m) => {
      const codes = await m.find(WebChannelCodeEntity, { where: { channelId: row.id }, select: { id: true } });
      if (codes.length) await m.delete(WebChannelCodeLogEntity, { codeId: In(codes.map((c) => c.id)) });
      await m.delete(WebChannelCodeEntity, { channelId: row.id });
      await m.delete(WebChannelUserEntity, { channelId: row.id });
      await m.delete(WebChannelEntity, { id: row.id, subjectId: row.subjectId });
    });
  }

  async update(id: number, input: WebChannelData): Promise<WebChannel> {
    const row = await this.scoped.get(id);
    await this.save(row, input, await this.ds.getRepository(WebChannelCodeEntity).find({ where: { channelId: id } }));
    return this.get(id);
  }

  private async save(row: WebChannelEntity, input: WebChannelData, storedCodes: WebChannelCodeEntity[]) {
    const errors: FieldError[] = [];
    const action = await this.actions.findOne({ id: input.actionId });
    if (!action) throw AppError.validation([{ path: 'actionId', key: 'basics.invalidValue' }]);
    const groups = await assertOwned(this.groups, input.groupsId, 'groupsId');
    if (groups.some((g) => g.actionId !== null && g.actionId !== action.id))
      errors.push({ path: 'groupsId', key: 'webChannelRules.groupsOfAction' });
    // an archived group is offered to no one new; a channel that already offers it may keep it (docs/archive.md)
    const offered = new Set(row.groupsId ?? []);
    if (groups.some((g) => g.archivedAt && !offered.has(g.id)))
      errors.push({ path: 'groupsId', key: 'recordArchive.groupArchived' });
    const days = new Set(action.days.map((d) => d.id));
    if (input.defaultDays.some((d) => !days.has(d)))
      errors.push({ path: 'defaultDays', key: 'basics.dateNotInActionRange' });
    const fields = new Set(action.customField.map((f) => f.id));
    if (input.customField.some((f) => !fields.has(f))) errors.push({ path: 'customField', key: 'basics.invalidValue' });
    await assertOwned(this.mailTemplates, [input.mailTemplateId], 'mailTemplateId');
    await assertOwned(this.images, [input.imageId], 'imageId');
    if (channelPasswordMissing(input, Boolean(row.passwordHash)))
      errors.push({ path: 'password', key: 'basics.requireField' });

    // Users and codes: existing ids must be this channel's; a code with uses cannot be removed.
    const isNew = row.id === undefined;
    const storedUsers = isNew
      ? []
      : await this.ds.getRepository(WebChannelUserEntity).find({ where: { channelId: row.id } });
    const userIds = new Set(storedUsers.map((u) => u.id));
    input.users.forEach((u, i) => {
      if (u.id && !userIds.has(u.id)) errors.push({ path: `users.${i}.id`, key: 'basics.invalidValue' });
    });
    const codeById = new Map(storedCodes.map((c) => [c.id, c]));
    input.externalCode.forEach((c, i) => {
      if (c.id && !codeById.has(c.id)) errors.push({ path: `externalCode.${i}.id`, key: 'basics.invalidValue' });
    });
    if (errors.length) throw AppError.validation(errors);
    const keptCodes = new Set(input.externalCode.map((c) => c.id).filter(Boolean));
    const removedCodes = storedCodes.filter((c) => !keptCodes.has(c.id));
    const usedRemoved = await this.codesWithLog(removedCodes);
    if (usedRemoved.length) throw new AppError('EXTERNAL_CODE_USED', { codes: usedRemoved.map((c) => c.code) });

    const newPassword = input.password ? await hashPassword(input.password, this.config.passwordHashCost) : null;
    const newUsers = await Promise.all(
      input.users
        .filter((u) => !u.id)
        .map(async (u) => ({
          login: u.login,
          active: u.active,
          passwordHash: await hashPassword(u.password ?? '', this.config.passwordHashCost),
        })),
    );

    Object.assign(row, {
      name: input.name,
      actionId: action.id,
      active: input.active,
      dateFrom: input.dateFrom,
      dateTo: input.dateTo,
      viewGroups: input.viewGroups,
      groupsSelectName: input.groupsSelectName,
      groupsId: input.groupsId,
      viewDays: input.viewDays,
      daysSelectName: input.daysSelectName,
      defaultDays: input.defaultDays,
      viewMealSelect: input.viewMealSelect,
      viewParkingSelect: input.viewParkingSelect,
      customNameFirstname: input.customNameFirstname,
      customNameLastname: input.customNameLastname,
      customNameEmail: input.customNameEmail,
      afterAddAction: input.afterAdd.action,
      mailTemplateId: input.mailTemplateId,
      customField: input.customField,
      withAuthorization: input.withAuthorization,
      byPassword: input.byPassword,
      byCode: input.byCode,
      authorizationText: input.authorizationText,
      numberUseExtCode: input.numberUseExtCode,
      imageId: input.imageId,
      updatedAt: new Date(),
      ...(newPassword ? { passwordHash: newPassword } : {}),
    });
    const subjectId = currentSubjectId();
    row.subjectId = subjectId;
    const now = new Date();
    const removedUsers = storedUsers.filter((u) => !input.users.some((x) => x.id === u.id));
    const deactivated = storedUsers.filter((u) => u.active && input.users.some((x) => x.id === u.id && !x.active));
    try {
      const id = await this.ds.transaction(async (m) => {
        const saved = await m.getRepository(WebChannelEntity).save(row);
        await this.saveUsers(m, saved.id, input, storedUsers, newUsers, now);
        await this.saveCodes(m, saved.id, input, codeById, removedCodes, now);
        return saved.id;
      });
      // Sessions that no longer authorize anyone end now: a changed channel password, removed or
      // deactivated users, removed codes.
      if (newPassword && !isNew) await this.tokens.revokeAll('online-pass', id);
      for (const u of [...removedUsers, ...deactivated]) await this.tokens.revokeAll('online-user', u.id);
      for (const c of removedCodes) await this.tokens.revokeAll('online-code', c.id);
      return id;
    } catch (err) {
      const message = String((err as Error).message);
      if (/UQ_web_channel_user_channel_login|web_channel_user\.channelId/i.test(message))
        throw new AppError('WEB_CHANNEL_USER_EXIST');
      if (/UQ_web_channel_code_channel_code|web_channel_code\.channelId/i.test(message))
        throw new AppError('EXTERNAL_CODE_EXIST');
      if (/UQ_web_channel_channelKey/i.test(message)) throw new AppError('INTERNAL_ERROR');
      throw err;
    }
  }

  private async saveUsers(
    m: EntityManager,
    channelId: number,
    input: WebChannelData,
    stored: WebChannelUserEntity[],
    created: { login: string; active: boolean; passwordHash: string }[],
    now: Date,
  ) {
    const repo = m.getRepository(WebChannelUserEntity);
    const kept = new Map(input.users.filter((u) => u.id).map((u) => [u.id as number, u]));
    const removed = stored.filter((u) => !kept.has(u.id)).map((u) => u.id);
    if (removed.length) await repo.delete({ id: In(removed) });
    // Renames first go to a temporary login, so swapping two logins does not trip the unique index.
    const changed = stored.filter((u) => {
      const next = kept.get(u.id);
      return next && (next.login !== u.login || next.active !== u.active);
    });
    for (const u of changed) await repo.update({ id: u.id }, { login: `~${u.id}~${u.login}`.slice(0, 255) });
    for (const u of changed) {
      const next = kept.get(u.id)!;
      await repo.update({ id: u.id }, { login: next.login, active: next.active });
    }
    for (let i = 0; i < created.length; i += CHUNK)
      await repo.insert(created.slice(i, i + CHUNK).map((u) => ({ ...u, channelId, createdAt: now })));
  }

  private async saveCodes(
    m: EntityManager,
    channelId: number,
    input: WebChannelData,
    stored: Map<number, WebChannelCodeEntity>,
    removed: WebChannelCodeEntity[],
    now: Date,
  ) {
    const repo = m.getRepository(WebChannelCodeEntity);
    for (let i = 0; i < removed.length; i += CHUNK)
      await repo.delete({ id: In(removed.slice(i, i + CHUNK).map((c) => c.id)) });
    const changed = input.externalCode.filter((c) => {
      const old = c.id ? stored.get(c.id) : undefined;
      return old && (old.code !== c.code || old.numberOfUse !== c.numberOfUse);
    });
    // Only code and numberOfUse are written: `used` belongs to the registrations counting it.
    for (const c of changed.filter((c) => stored.get(c.id!)!.code !== c.code))
      await repo.update({ id: c.id! }, { code: `~${c.id}`.slice(0, EXTERNAL_CODE_MAX_LENGTH) });
    for (const c of changed) await repo.update({ id: c.id! }, { code: c.code, numberOfUse: c.numberOfUse });
    const created = input.externalCode.filter((c) => !c.id);
    for (let i = 0; i < created.length; i += CHUNK) {
      await repo.insert(
        created.slice(i, i + CHUNK).map((c) => ({
          channelId,
          code: c.code,
          numberOfUse: c.numberOfUse,
          used: 0,
          createdAt: now,
        })),
      );
    }
  }

  /** Codes that registered someone (a log row, or a use counted): they cannot be removed. */
  private async codesWithLog(codes: WebChannelCodeEntity[]): Promise<WebChannelCodeEntity[]> {
    const out = codes.filter((c) => c.used > 0);
    const rest = codes.filter((c) => c.used === 0);
    for (let i = 0; i < rest.length; i += CHUNK) {
      const chunk = rest.slice(i, i + CHUNK);
      const logged = await this.ds
        .getRepository(WebChannelCodeLogEntity)
        .createQueryBuilder('l')
        .select('DISTINCT l.codeId', 'codeId')
        .where({ codeId: In(chunk.map((c) => c.id)) })
        .getRawMany<{ codeId: number }>();
      const ids = new Set(logged.map((l) => Number(l.codeId)));
      out.push(...chunk.filter((c) => ids.has(c.id)));
    }
    return out;
  }

  // ---- CSV of external codes ----

  /**
   * Parses a CSV of codes (spec §5: lines `code` or `code;numberOfUse`; `,` and tab also
   * separate; a header line is skipped; further columns, such as the export's `used`, are
   * ignored). Nothing is saved: the form merges the codes and saves them with the channel.
   */
  importCodes(input: ImportInput): ExternalCodeImportResult {
    const match = /^(?:data:[\w/.+-]*(?:;[\w=-]+)*;base64,)?([A-Za-z0-9+/=\s]*)$/.exec(input.dataFile.trim());
    if (!match) throw new AppError('DATA_BASE64_INVALID');
    const base64 = match[1].replace(/\s+/g, '');
    if (Math.floor((base64.length * 3) / 4) > CSV_MAX_BYTES + 3) throw new AppError('PAYLOAD_TOO_LARGE');
    const data = Buffer.from(base64, 'base64');
    // A spreadsheet or any other binary file is not a CSV.
    if (data.includes(0) || (data.length >= 4 && data.readUInt32LE(0) === 0x04034b50))
      throw new AppError('INVALID_IMPORT_FILE_FORMAT');
    let text = data.toString('utf8');
    if (text.includes('\uFFFD')) text = data.toString('latin1');
    text = text.replace(/^\uFEFF/, '');

    const seen = new Set(input.existing.map(normalizeCode));
    const result: ExternalCodeImportResult = { codes: [], skipped: [] };
    const fallbackUses = input.numberUseExtCode ?? 0;
    const lines = text.split(/\r\n|\n|\r/);
    for (const [index, raw] of lines.entries()) {
      if (!raw.trim()) continue;
      const cells = raw.split(/[;,\t]/).map((c) =>
        c
          .trim()
          .replace(/^"(.*)"$/, '$1')
          .trim(),
      );
      const [first = '', second = ''] = cells;
      if (index === 0 && /^(code|kód|kod|externalcode)$/i.test(first)) continue;
      const code = normalizeCode(first);
      const reason: ExternalCodeSkipReason | null = !code
        ? 'empty'
        : code.length > EXTERNAL_CODE_MAX_LENGTH
          ? 'tooLong'
          : second !== '' && (!/^\d{1,7}$/.test(second) || Number(second) > 1_000_000)
            ? 'badNumber'
            : seen.has(code)
              ? 'duplicate'
              : null;
      if (reason) {
        result.skipped.push({ line: index + 1, text: raw.slice(0, 200), reason });
        continue;
      }
      seen.add(code);
      result.codes.push({ code, numberOfUse: second === '' ? fallbackUses : Number(second) });
    }
    return result;
  }

  /** The channel's codes as CSV (code;numberOfUse;used), a file the import reads back. */
  async exportCodes(id: number): Promise<{ file: Buffer; name: string }> {
    const row = await this.scoped.get(id);
    const codes = await this.ds
      .getRepository(WebChannelCodeEntity)
      .find({ where: { channelId: id }, order: { id: 'ASC' } });
    const lines = ['code;numberOfUse;used', ...codes.map((c) => `${c.code};${c.numberOfUse};${c.used}`)];
    const slug =
      row.name
        .normalize('NFD')
        .replace(/[\u0300-\u036f]/g, '')
        .replace(/[^A-Za-z0-9]+/g, '-')
        .replace(/^-+|-+$/g, '')
        .toLowerCase()
        .slice(0, 60) || `channel-${row.id}`;
    return { file: Buffer.from(`${lines.join('\r\n')}\r\n`, 'utf8'), name: `external-codes-${slug}.csv` };
  }

  // ---- helpers ----

  private async now(subjectId: number): Promise<string> {
    const subject = await this.subjects.findOneBy({ id: subjectId });
    return wallClock(subject?.timeZone ?? 'Europe/Prague');
  }
}
