import {
  type AuthorizationType,
  authorizationTypeOf,
  defaultFieldValue,
  type FieldError,
  LANGUAGES,
  type Language,
  type MultiText,
  normalizeCode,
  normalizeLogin,
  type OnlineChannelData,
  type OnlineChannelInfo,
  type OnlineLoginInput,
  type OnlineRegistrationResult,
  type OnlineToken,
  onlineLoginSchemaFor,
  type onlineRegistrationSchema,
  WEB_CHANNEL_STATE_ERRORS,
  wallClock,
  webChannelState,
} from '@accredo/domain';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { type DataSource, In, IsNull, type Repository } from 'typeorm';
import type { z } from 'zod';
import { AppError } from '../../common/app-error.js';
import { dummyPasswordHash, verifyPassword } from '../../common/crypto.js';
import { toFieldErrors } from '../../common/zod.js';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { preparedReader } from '../../database/prepared.js';
import { type ReadBatch, rowsByKeys } from '../../database/read-batch.js';
import { runInTenant } from '../../database/tenant.js';
import { ActionExtensionService } from '../action-extension/action-extension.service.js';
import { assignCore } from '../action-extension/extension-core.js';
import { type ActionField, AccreditationService } from '../accreditation/accreditation.service.js';
import type { Step, WriteResult } from '../../database/core-runner.js';
import { ActionEntity } from '../action/action.entity.js';
import { isSqlite } from '../device/sql.js';
import { GroupEntity } from '../groups/group.entity.js';
import { ImageEntity } from '../image/image.entity.js';
import { AccreditationMailService } from '../mail/accreditation-mail.service.js';
import { mailLanguage } from '../mail/mail-render.js';
import { MailService } from '../mail/mail.service.js';
import { RateLimitService } from '../rate-limit/rate-limit.service.js';
import type { SessionTokenEntity, TokenKind } from '../session/session-token.entity.js';
import { TokenService } from '../session/token.service.js';
import { SubjectEntity } from '../subject/subject.entity.js';
import { ZoneEntity } from '../zone/zone.entity.js';
import { configVersionOf, type OnlineConfigVersion } from './online-config.js';
import { WebChannelCodeEntity, WebChannelEntity, WebChannelUserEntity } from './web-channel.entity.js';

type Registration = z.output<typeof onlineRegistrationSchema>;

/** The token kind of each authorization type: a token of another kind does not open the channel. */
const TOKEN_KIND: Record<AuthorizationType, TokenKind> = { 1: 'online-pass', 2: 'online-user', 3: 'online-code' };

const CHANNEL_KEY = /^[A-Za-z0-9_-]{1,64}$/;

/** A write step of the registration's transaction (registration-write.ts). */
const step = (sql: string, params: unknown[]): Step => ({ sql, params, kind: 'run' });

interface Opened {
  channel: WebChannelEntity;
  subject: SubjectEntity;
}

/**
 * What registrations on one channel read of the admin's set-up, kept in memory under the set-up
 * version it was read at (issue 16): the channel and subject, and once asked for the action, its
 * fields, the groups and zones chosen and whether the mail template exists. Never mutated.
 */
interface Setup extends Opened {
  version: number;
  action?: ActionEntity;
  fields?: ActionField[];
  offered?: GroupEntity[];
  groups: Map<string, GroupEntity[]>;
  zones: Map<string, number[]>;
  template?: { id: number } | null;
}

/** Channels kept per instance (all are dropped when the version changes). */
const SETUPS_MAX = 500;

/** What authorized a visitor: the token row, and the code when the channel works with codes. */
interface Visitor {
  token: SessionTokenEntity;
  code: WebChannelCodeEntity | null;
}

const CODE_ROW = 'SELECT id, channelId, code, numberOfUse, used FROM web_channel_code WHERE id';

/**
 * The public online registration (spec §7 Online, §4 states and flow, §5 Online registration,
 * §8 Online). Routes are public; a channel with authorization checks the online token itself,
 * since which token opens it depends on the channel in the path.
 */
@Injectable()
export class OnlineService {
  private readonly logger = new Logger('OnlineService');
  private readonly configVersion: OnlineConfigVersion;
  private readonly setups = new Map<string, Setup>();
  private setupsVersion = -1;

  constructor(
    @InjectRepository(WebChannelEntity) private readonly channels: Repository<WebChannelEntity>,
    @InjectRepository(WebChannelUserEntity) private readonly users: Repository<WebChannelUserEntity>,
    @InjectRepository(WebChannelCodeEntity) private readonly codes: Repository<WebChannelCodeEntity>,
    @InjectRepository(SubjectEntity) private readonly subjects: Repository<SubjectEntity>,
    @InjectRepository(ActionEntity) private readonly actions: Repository<ActionEntity>,
    @InjectRepository(GroupEntity) private readonly groups: Repository<GroupEntity>,
    @InjectRepository(ZoneEntity) private readonly zones: Repository<ZoneEntity>,
    @InjectRepository(ImageEntity) private readonly images: Repository<ImageEntity>,
    private readonly tokens: TokenService,
    private readonly limits: RateLimitService,
    private readonly accreditations: AccreditationService,
    private readonly mails: AccreditationMailService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly extensions: ActionExtensionService,
    @InjectDataSource() private readonly ds: DataSource,
  ) {
    this.configVersion = configVersionOf(ds);
    this.codeRows = isSqlite(ds)
      ? null
      : rowsByKeys(
          (sql, ids: number[]) => preparedReader(ds).all<Record<string, unknown>>(sql, ids),
          (marks) => `${CODE_ROW} IN (${marks})`,
          (row) => Number(row.id),
          { maxKeys: 32, maxInFlight: 2 },
        );
  }

  /**
   * The channel's set-up for a registration: one read of the version, then the rows only when an
   * admin changed something since (a changed channel or field is seen at once, on every instance).
   */
  private async setup(key: string): Promise<Setup> {
    const version = await this.configVersion.current();
    if (version > this.setupsVersion) {
      this.setups.clear();
      this.setupsVersion = version;
    }
    const kept = this.setups.get(key);
    if (kept && kept.version === version) return kept;
    const setup: Setup = { ...(await this.find(key)), version, groups: new Map(), zones: new Map() };
    // rows read under an older version than one seen meanwhile are used once, never kept
    if (version === this.setupsVersion) {
      if (this.setups.size >= SETUPS_MAX) this.setups.clear();
      this.setups.set(key, setup);
    }
    return setup;
  }

  // ---- the channel and its state ----

  private async find(key: string): Promise<Opened> {
    const channel = CHANNEL_KEY.test(key) ? await this.channels.findOneBy({ channelKey: key }) : null;
    const subject = channel ? await this.subjects.findOneBy({ id: channel.subjectId }) : null;
    if (!channel || !subject) throw new AppError('WEB_CHANNEL_DOESNT_EXIST');
    return { channel, subject };
  }

  /** Spec §4: open only when active and within dateFrom..dateTo (the venue's wall clock). */
  private async open(key: string): Promise<Opened> {
    const opened = await this.find(key);
    const state = webChannelState(opened.channel, wallClock(opened.subject.timeZone));
    if (state !== 'open') throw new AppError(WEB_CHANNEL_STATE_ERRORS[state]);
    return opened;
  }

  private async action(channel: WebChannelEntity): Promise<ActionEntity> {
    const action = await this.actions.findOneBy({ id: channel.actionId, subjectId: channel.subjectId });
    // A channel whose action was removed leads nowhere; one of an archived action is closed (issue 15).
    if (!action) throw new AppError('WEB_CHANNEL_DOESNT_EXIST');
    if (action.archivedAt) throw new AppError('WEB_CHANNEL_IS_CLOSED');
    return action;
  }

  async info(key: string): Promise<OnlineChannelInfo> {
    const { channel, subject } = await this.open(key);
    return this.infoOf(channel, subject, await this.action(channel));
  }

  private async infoOf(
    channel: WebChannelEntity,
    subject: SubjectEntity,
    action: ActionEntity,
  ): Promise<OnlineChannelInfo> {
    const logo = channel.imageId
      ? await this.images.findOneBy({ id: channel.imageId, subjectId: channel.subjectId })
      : null;
    return {
      channelKey: channel.channelKey,
      name: channel.name,
      languages: subject.multiLanguage ? [...LANGUAGES] : (['cs'] as Language[]),
      multiLanguage: subject.multiLanguage,
      logo: logo ? `/api/file/${logo.fileKey}` : null,
      withAuthorization: channel.withAuthorization,
      authorizationType: channel.withAuthorization ? authorizationTypeOf(channel) : null,
      authorizationText: channel.authorizationText,
      actionName: action.name,
    };
  }

  /** Everything the form needs; behind the channel's authorization when it has one. */
  async data(key: string, rawToken: string | undefined): Promise<OnlineChannelData> {
    const { channel, subject } = await this.open(key);
    if (channel.withAuthorization) await this.visitor(channel, rawToken);
    const action = await this.action(channel);
    return runInTenant(channel.subjectId, async () => {
      const fields = await this.accreditations.actionFields(action);
      const settings = new Map(action.customField.map((f) => [f.id, f]));
      const shown = fields.filter((f) => this.isShown(channel, settings.get(f.id)));
      const groups = channel.viewGroups ? await this.offeredGroups(channel, action) : [];
      const hasExtension = (type: number) => (action.extension ?? []).includes(type);
      return {
        ...(await this.infoOf(channel, subject, action)),
        afterAdd: { action: channel.afterAddAction === 2 ? 2 : 1 },
        customNameFirstname: channel.customNameFirstname,
        customNameLastname: channel.customNameLastname,
        customNameEmail: channel.customNameEmail,
        textOnline: action.textOnline,
        textAfterAdd: action.textAfterAdd,
        withPhoto: action.withPhoto,
        requirePhoto: action.withPhoto && action.requirePhoto,
        viewGroups: channel.viewGroups,
        groupsSelectName: channel.groupsSelectName,
        groups: groups.map((g) => ({ id: g.id, name: g.name, displayName: g.displayName })),
        viewDays: channel.viewDays && action.multiDay,
        daysSelectName: channel.daysSelectName,
        days: channel.viewDays && action.multiDay ? action.days.map((d) => ({ id: d.id, name: d.name })) : [],
        defaultDays: channel.defaultDays.filter((d) => action.days.some((x) => x.id === d)),
        customField: shown.map((f) => ({
          id: f.id,
          name: f.name,
          label: f.label as MultiText,
          tooltip: (f.tooltip ?? { cs: '', sk: '', en: '', de: '' }) as MultiText,
          customFieldType: f.customFieldType,
          options: f.options,
          isMandatory: f.isMandatory,
        })),
        checkingAttributes: action.checkingAttributes.map((a) => ({
          id: String(a.id ?? ''),
          label: a.label,
          url: a.url,
          required: a.required,
        })),
        viewMealSelect: channel.viewMealSelect && hasExtension(1),
        viewParkingSelect: channel.viewParkingSelect && hasExtension(2),
        mealItems:
          channel.viewMealSelect && hasExtension(1) && subject.extensions?.includes(1)
            ? await this.extensions.onlineItems(1, action.id)
            : [],
        parkingItems:
          channel.viewParkingSelect && hasExtension(2) && subject.extensions?.includes(2)
            ? await this.extensions.onlineItems(2, action.id)
            : [],
      };
    });
  }

  /** A user field is shown unless the action hides it or the channel lists others only. */
  private isShown(channel: WebChannelEntity, setting: ActionEntity['customField'][number] | undefined): boolean {
    if (!setting || setting.notShow) return false;
    return channel.customField.length === 0 || channel.customField.includes(setting.id);
  }

  /** viewGroups: the channel's groups, or every group of the action when it names none; never an archived one (issue 15). */
  private async offeredGroups(channel: WebChannelEntity, action: ActionEntity): Promise<GroupEntity[]> {
    if (channel.groupsId.length)
      return this.groups.find({
        where: { subjectId: channel.subjectId, id: In(channel.groupsId), archivedAt: IsNull() },
        order: { name: 'ASC' },
      });
    return this.groups.find({
      where: { subjectId: channel.subjectId, actionId: action.id, archivedAt: IsNull() },
      order: { name: 'ASC' },
    });
  }

  // ---- authorization (spec §4 Tokens, §8 Online) ----

  async login(body: OnlineLoginInput, ip: string): Promise<OnlineToken> {
    const { channel } = await this.open(body.channelKey);
    if (!channel.withAuthorization) throw new AppError('BAD_REQUEST');
    const type = authorizationTypeOf(channel);
    const checked = onlineLoginSchemaFor(type).safeParse(body);
    if (!checked.success) throw AppError.validation(toFieldErrors(checked.error));
    const input = checked.data;
    // The account is a login user of the channel, or the channel itself (its password, its codes);
    // the attempt is counted before anything is checked (requests sent at once are all counted).
    const account = type === 2 ? `${channel.id}:user:${normalizeLogin(input.login ?? '')}` : `${channel.id}`;
    const attempt = await this.limits.signIn('online', account, ip);
    const dummy = () => dummyPasswordHash(this.config.passwordHashCost);
    let principalId: number;
    if (type === 1) {
      const ok = await verifyPassword(input.password ?? '', channel.passwordHash ?? (await dummy()));
      if (!ok || !channel.passwordHash) throw new AppError('AUTH_INVALID');
      principalId = channel.id;
    } else if (type === 2) {
      const user = await this.users.findOneBy({ channelId: channel.id, login: normalizeLogin(input.login ?? '') });
      const ok = await verifyPassword(input.password ?? '', user?.passwordHash ?? (await dummy()));
      if (!user || !ok || !user.active) throw new AppError('USER_DOESNT_EXIST');
      principalId = user.id;
    } else {
      const code = await this.codes.findOneBy({ channelId: channel.id, code: normalizeCode(input.code ?? '') });
      if (!code) throw new AppError('INVALID_WEB_CHANNEL_CODE');
      if (isExhausted(code)) throw new AppError('USED_WEB_CHANNEL_CODE');
      principalId = code.id;
    }
    await attempt.succeeded();
    const { raw } = await this.tokens.issue(TOKEN_KIND[type], principalId, channel.subjectId);
    return { token: raw, authorizationType: type };
  }

  /**
   * A code's row, read by every registration with a code (issue 16): by one prepared read on the
   * driver; on MariaDB the registrations that ask while two such reads are on the server share the
   * next one (`id IN (…)`, ReadBatch: never a read sent before they asked). Its `used` only tells a
   * used-up code early: the registration's own conditional update of the count decides.
   */
  private readonly codeRows: ReadBatch<number, Record<string, unknown>[]> | null;

  private async codeRow(id: number): Promise<Record<string, unknown> | undefined> {
    if (this.codeRows) return (await this.codeRows.get(id))?.[0];
    return (await preparedReader(this.ds).all<Record<string, unknown>>(`${CODE_ROW} = ?`, [id]))[0];
  }

  /** The visitor a token authorizes on this channel, or the error that sends them to log in. */
  private async visitor(channel: WebChannelEntity, rawToken: string | undefined): Promise<Visitor> {
    if (!rawToken) throw new AppError('AUTH_INVALID');
    const type = authorizationTypeOf(channel);
    // A token of another kind (the channel's type changed since) is not found: TOKEN_INVALID.
    const token = await this.tokens.resolve(TOKEN_KIND[type], rawToken);
    const invalid = async () => {
      await this.tokens.revoke(token.id);
      return new AppError('TOKEN_INVALID');
    };
    if (type === 1) {
      if (token.principalId !== channel.id) throw new AppError('TOKEN_INVALID');
      return { token, code: null };
    }
    if (type === 2) {
      const user = await this.users.findOneBy({ id: token.principalId });
      if (!user || user.channelId !== channel.id) throw new AppError('TOKEN_INVALID');
      if (!user.active) throw await invalid();
      return { token, code: null };
    }
    const found = await this.codeRow(token.principalId);
    const code = found
      ? this.codes.create({
          id: Number(found.id),
          channelId: Number(found.channelId),
          code: String(found.code),
          numberOfUse: Number(found.numberOfUse),
          used: Number(found.used),
        })
      : null;
    if (!code || code.channelId !== channel.id) throw new AppError('TOKEN_INVALID');
    return { token, code };
  }

  async authorize(key: string, rawToken: string | undefined): Promise<{ authorizationType: AuthorizationType }> {
    const { channel } = await this.open(key);
    if (!channel.withAuthorization) return { authorizationType: authorizationTypeOf(channel) };
    const visitor = await this.visitor(channel, rawToken);
    if (visitor.code && isExhausted(visitor.code)) throw new AppError('USED_WEB_CHANNEL_CODE');
    return { authorizationType: authorizationTypeOf(channel) };
  }

  async logout(key: string, rawToken: string | undefined): Promise<true> {
    const { channel } = await this.find(key);
    if (!channel.withAuthorization) return true;
    const visitor = await this.visitor(channel, rawToken);
    await this.tokens.revoke(visitor.token.id);
    return true;
  }

  // ---- registration ----

  /**
   * Registers a visitor through the accreditation service (the same checks as the admin's create:
   * user fields, groups, days, photo, one e-mail per action), with the channel's rules on top.
   * With a code, its use is counted by one conditional UPDATE in the insert's transaction, so
   * uses never pass numberOfUse however many visitors submit at once.
   */
  async register(key: string, rawToken: string | undefined, body: Registration): Promise<OnlineRegistrationResult> {
    const setup = await this.setup(key);
    const { channel, subject } = setup;
    const state = webChannelState(channel, wallClock(subject.timeZone));
    if (state !== 'open') throw new AppError(WEB_CHANNEL_STATE_ERRORS[state]);
    const visitor = channel.withAuthorization ? await this.visitor(channel, rawToken) : null;
    if (visitor?.code && isExhausted(visitor.code)) throw new AppError('USED_WEB_CHANNEL_CODE');
    setup.action ??= await this.action(channel);
    const action = setup.action;
    return runInTenant(channel.subjectId, async () => {
      const errors: FieldError[] = [];
      setup.fields ??= await this.accreditations.actionFields(action);
      const fields = setup.fields;
      const settings = new Map(action.customField.map((f) => [f.id, f]));
      const fixedFields = new Map<number, unknown>();
      for (const field of fields) {
        const setting = settings.get(field.id);
        if (!this.isShown(channel, setting)) {
          fixedFields.set(field.id, defaultFieldValue(field.customFieldType, setting?.defaultValue));
        }
      }
      // A visitor sends a photo for an image field, never the id of someone's gallery image.
      const customField = body.customField.filter((v) => !fixedFields.has(v.id));
      for (const v of customField) {
        const field = fields.find((f) => f.id === v.id);
        if (field?.customFieldType === 9 && v.value !== null && v.value !== '' && typeof v.value !== 'string')
          errors.push({ path: `customField.${v.id}`, key: 'basics.invalidValue' });
        if (field?.customFieldType === 9 && typeof v.value === 'string' && v.value && !v.value.startsWith('data:'))
          errors.push({ path: `customField.${v.id}`, key: 'basics.invalidValue' });
      }

      const withPhoto = action.withPhoto;
      if (withPhoto && action.requirePhoto && !body.image)
        errors.push({ path: 'image', key: 'webChannelRules.photoRequired' });

      let wanted = channel.groupsId;
      // the offered groups are the rows the chosen ones are taken from (not read twice, issue 16)
      let offeredRows: GroupEntity[] | null = null;
      if (channel.viewGroups) {
        setup.offered ??= await this.offeredGroups(channel, action);
        offeredRows = setup.offered;
        const offered = new Set(offeredRows.map((g) => g.id));
        if (!body.groups.length) errors.push({ path: 'groups', key: 'webChannelRules.groupRequired' });
        else if (!body.groups.every((g) => offered.has(g))) errors.push({ path: 'groups', key: 'basics.invalidValue' });
        wanted = body.groups;
      }
      // Groups removed, archived or moved to another action since the channel was saved are left out.
      const wantedSet = new Set(wanted);
      const wantedKey = [...wantedSet].sort((a, b) => a - b).join(',');
      let wantedRows = offeredRows ? offeredRows.filter((g) => wantedSet.has(g.id)) : setup.groups.get(wantedKey);
      if (!wantedRows) {
        wantedRows = wanted.length
          ? await this.groups.find({ where: { subjectId: channel.subjectId, id: In(wanted) } })
          : [];
        setup.groups.set(wantedKey, wantedRows);
      }
      const chosenGroups = wantedRows.filter((g) => (g.actionId === null || g.actionId === action.id) && !g.archivedAt);
      const groupIds = chosenGroups.map((g) => g.id);
      // The groups' zones come along (as the import's "zones from the group").
      const zoneIds = [...new Set(chosenGroups.flatMap((g) => g.zoneIds ?? []))].sort((a, b) => a - b);
      let zones = setup.zones.get(zoneIds.join(','));
      if (!zones) {
        zones = zoneIds.length
          ? (await this.zones.find({ where: { subjectId: channel.subjectId, id: In(zoneIds) } }))
              .filter((z) => z.actionId === null || z.actionId === action.id)
              .map((z) => z.id)
          : [];
        setup.zones.set(zoneIds.join(','), zones);
      }

      const actionDays = new Set(action.days.map((d) => d.id));
      const days = !action.multiDay
        ? []
        : channel.viewDays
          ? body.days
          : channel.defaultDays.filter((d) => actionDays.has(d));

      for (const attribute of action.checkingAttributes) {
        if (attribute.required && !body.checkingAttributes[String(attribute.id)])
          errors.push({ path: `checkingAttributes.${attribute.id}`, key: 'webChannelRules.checkingAttributeRequired' });
      }
      // Meal and parking choices are taken only where the form offers them, stored with the
      // person in the same transaction with their capacities held (issue 14).
      const offers = (flag: boolean, type: number) => flag && (action.extension ?? []).includes(type);
      if (body.mealItems.length && !offers(channel.viewMealSelect, 1))
        errors.push({ path: 'mealItems', key: 'basics.invalidValue' });
      if (body.parkingItems.length && !offers(channel.viewParkingSelect, 2))
        errors.push({ path: 'parkingItems', key: 'basics.invalidValue' });
      if (errors.length) throw AppError.validation(errors);

      const code = visitor?.code ?? null;
      // The confirmation mail is queued unwritten in the registration's own transaction and written
      // by the mail worker (issue 16); the thank-you page promises it only when its template exists.
      const mailTemplateId = channel.mailTemplateId ?? action.afterMailTemplateId;
      if (setup.template === undefined)
        setup.template = mailTemplateId
          ? await this.mails
              .templateOf(channel.subjectId, mailTemplateId)
              .then((t) => ({ id: t.id }))
              .catch(() => null)
          : null;
      const template = setup.template;
      let mailId = 0;
      const created = await this.accreditations.register(
        {
          actionId: action.id,
          firstname: body.firstname,
          lastname: body.lastname,
          email: body.email,
          // the language the form was shown in: every mail to the visitor is written in it (issue 15)
          language: body.language,
          groupIds,
          zones,
          days,
          customField,
          imageData: withPhoto ? (body.image ?? null) : null,
        },
        {
          source: 'web',
          webChannelId: channel.id,
          photoField: 'image',
          fixedFields,
          context: {
            action,
            fields,
            subject,
            linksChecked: true,
            // the chosen groups' rows are of the current config version: no defaults, no read
            groupDefaults: chosenGroups.some((g) => g.assignDefaultMeal || g.assignDefaultParking),
          },
          // in the create's transaction, after the person and their links (registration-write.ts)
          afterInsert: function* (env, person) {
            for (const [type, items] of [
              [1, body.mealItems],
              [2, body.parkingItems],
            ] as const)
              if (items.length)
                yield* assignCore(
                  env,
                  { subjectId: channel.subjectId, actionId: action.id, type },
                  [person.id],
                  items.filter((i) => i.have),
                  { policy: 'strict', onlyActive: true, now: new Date() },
                );
            if (code) {
              yield step(
                'INSERT INTO web_channel_code_log (codeId, accreditationId, date, firstname, lastname, email) VALUES (?, ?, ?, ?, ?, ?)',
                [code.id, person.id, env.date(new Date()), body.firstname, body.lastname, body.email],
              );
              // One conditional UPDATE counts the use; it comes last, so a code shared by many
              // visitors stays locked only until the commit right after.
              const counted = (yield step(
                'UPDATE web_channel_code SET used = used + 1 WHERE id = ? AND (numberOfUse = 0 OR used < numberOfUse)',
                [code.id],
              )) as WriteResult;
              if (!counted.changes) throw new AppError('USED_WEB_CHANNEL_CODE');
            }
            mailId = 0;
            if (template && body.email.trim()) {
              const queued = (yield MailService.deferredInsert(
                {
                  subjectId: channel.subjectId,
                  accreditationId: person.id,
                  actionId: action.id,
                  mailTemplateId: template.id,
                  to: body.email.trim(),
                  // written in the visitor's language as the subject offers it now (issue 15)
                  language: mailLanguage({ language: body.language ?? 'cs' }, subject.multiLanguage),
                  note: 'online',
                },
                env.date(new Date()),
              )) as WriteResult;
              mailId = queued.insertId;
            }
          },
        },
      );
      if (mailId) this.mails.notifyQueued(mailId);
      else if (mailTemplateId) this.logger.warn(`after-registration mail of accreditation ${created.id}: no template`);
      return {
        id: created.id,
        customId: created.customId,
        afterAdd: { action: channel.afterAddAction === 2 ? 2 : 1 },
        // the thank-you page says a confirmation mail is on its way only when one was queued
        confirmationMail: mailId > 0,
      };
    });
  }
}

function isExhausted(code: WebChannelCodeEntity): boolean {
  return code.numberOfUse > 0 && code.used >= code.numberOfUse;
}
