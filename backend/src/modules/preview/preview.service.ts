import { normalizeCode, parseBadgeCode } from '@accredo/access';
import {
  EXTENSION_MEAL,
  EXTENSION_PARKING,
  type ExtensionType,
  hasRight,
  isExtensionType,
  LANGUAGES,
  type Language,
  type OnlineExtensionItem,
  type PreviewData,
  type PreviewSelectBlock,
  TEST_PREVIEW_CODE,
  type UserExtensionItem,
  type UserExtensionItemView,
  wallClock,
} from '@accredo/domain';
import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import type { DataSource, Repository } from 'typeorm';
import { AppError } from '../../common/app-error.js';
import { runInTenant } from '../../database/tenant.js';
import { AccreditationEntity } from '../accreditation/accreditation.entity.js';
import { ActionExtensionService, storeChoices } from '../action-extension/action-extension.service.js';
import { ActionEntity } from '../action/action.entity.js';
import { AdminUserEntity } from '../admin-user/admin-user.entity.js';
import { ImageEntity } from '../image/image.entity.js';
import { RateLimitService } from '../rate-limit/rate-limit.service.js';
import { TokenService } from '../session/token.service.js';
import { SubjectEntity } from '../subject/subject.entity.js';

const SUBJECT_KEY = /^[A-Za-z0-9_-]{1,64}$/;
const MAX_CODE = 64;

/**
 * Lookups per client address (GET and PUT alike): a person opens their page a few times, a guesser
 * needs millions (codes are 16 random letters and digits), so 60 per 10 minutes stops guessing and
 * never a person.
 */
export const PREVIEW_LIMIT = { max: 60, windowMs: 10 * 60_000 } as const;

const EMPTY = { cs: '', sk: '', en: '', de: '' };

interface Found {
  subject: SubjectEntity;
  action: ActionEntity;
  /** null: the action's test preview */
  person: AccreditationEntity | null;
}

/**
 * The person's preview page (spec §2 Preview page, §3 Preview data, §7 Preview, §8 Preview). Public:
 * the code on the badge is the only key, so every unknown subject, code, superseded badge (docs/
 * access-control.md "Badge versions") or action without smartBc answers the same 404
 * PREVIEW_NOT_FOUND, and lookups are rate-limited per address.
 */
@Injectable()
export class PreviewService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    @InjectRepository(SubjectEntity) private readonly subjects: Repository<SubjectEntity>,
    @InjectRepository(ActionEntity) private readonly actions: Repository<ActionEntity>,
    @InjectRepository(AccreditationEntity) private readonly people: Repository<AccreditationEntity>,
    @InjectRepository(ImageEntity) private readonly images: Repository<ImageEntity>,
    @InjectRepository(AdminUserEntity) private readonly admins: Repository<AdminUserEntity>,
    private readonly limits: RateLimitService,
    private readonly tokens: TokenService,
    private readonly extensions: ActionExtensionService,
  ) {}

  private async find(subjectKey: string, rawCode: string, ip: string, adminToken?: string): Promise<Found> {
    await this.limits.consume([{ key: `preview:ip:${ip}`, ...PREVIEW_LIMIT }]);
    const code = normalizeCode(rawCode ?? '');
    if (!SUBJECT_KEY.test(subjectKey ?? '') || !code || code.length > MAX_CODE) throw new AppError('PREVIEW_NOT_FOUND');
    const subject = await this.subjects.findOneBy({ key: subjectKey });
    if (!subject) throw new AppError('PREVIEW_NOT_FOUND');

    const test = TEST_PREVIEW_CODE.exec(code);
    if (test) {
      // the test preview shows an action's unpublished page: only to an admin of the subject holding
      // the right to open previews (spec §2: opened from the action detail)
      if (!(await this.mayTest(subject, adminToken))) throw new AppError('PREVIEW_NOT_FOUND');
      const action = await this.actions.findOneBy({ id: Number(test[1]), subjectId: subject.id });
      if (!action?.smartBc) throw new AppError('PREVIEW_NOT_FOUND');
      return { subject, action, person: null };
    }

    const { bc, version } = parseBadgeCode(code);
    const person = await this.people.findOneBy({ bc, subjectId: subject.id });
    // a superseded badge (lower version) or one never printed (higher) opens nothing
    if (!person || (person.badgeVersion ?? 0) !== version) throw new AppError('PREVIEW_NOT_FOUND');
    const action = await this.actions.findOneBy({ id: person.actionId, subjectId: subject.id });
    if (!action?.smartBc) throw new AppError('PREVIEW_NOT_FOUND');
    return { subject, action, person };
  }

  private async mayTest(subject: SubjectEntity, raw: string | undefined): Promise<boolean> {
    if (!raw) return false;
    try {
      const token = await this.tokens.resolve('admin', raw);
      const user = await this.admins.findOneBy({ id: token.principalId });
      if (!user?.active || !user.verified) return false;
      const subjectId = user.manageuser ? (token.subjectId ?? user.subjectId) : user.subjectId;
      return subjectId === subject.id && hasRight(user, 'user', 'goToPreview');
    } catch {
      return false;
    }
  }

  /** Self-selection is open: allowSelect on and now before the deadline (the subject's clock). */
  private selectOpen(block: PreviewSelectBlock | undefined, subject: SubjectEntity): boolean {
    if (!block?.allowSelect) return false;
    return !block.selectDateTime || wallClock(subject.timeZone) < block.selectDateTime;
  }

  private hasExtension(f: Found, type: ExtensionType): boolean {
    return (f.subject.extensions ?? []).includes(type) && (f.action.extension ?? []).includes(type);
  }

  private async items(f: Found, type: ExtensionType): Promise<OnlineExtensionItem[]> {
    return this.hasExtension(f, type) ? this.extensions.onlineItems(type, f.action.id) : [];
  }

  private async userItems(f: Found, type: ExtensionType): Promise<UserExtensionItemView[]> {
    if (!f.person || !this.hasExtension(f, type)) return [];
    return (await this.extensions.userItems(type, f.action.id, f.person.id)).items;
  }

  async get(subjectKey: string, code: string, ip: string, adminToken?: string): Promise<PreviewData> {
    return this.view(await this.find(subjectKey, code, ip, adminToken));
  }

  private async view(f: Found): Promise<PreviewData> {
    const { subject, action, person } = f;
    const pd = action.previewData;
    const image = pd?.image ? await this.images.findOneBy({ id: pd.image, subjectId: subject.id }) : null;
    const block = <T extends object>(b: T | undefined, extra: object = {}) => ({
      show: false,
      title: EMPTY,
      html: EMPTY,
      ...extra,
      ...(b ?? {}),
    });
    const meal = block(pd?.meal, { allowSelect: false, selectDateTime: null }) as PreviewSelectBlock;
    const parking = block(pd?.parking, { allowSelect: false, selectDateTime: null }) as PreviewSelectBlock;
    return runInTenant(subject.id, async () => {
      const dayNames = new Map((action.multiDay ? (action.days ?? []) : []).map((d) => [d.id, d.name]));
      const days = person ? (person.days ?? []) : [...dayNames.keys()];
      const hasMeal = this.hasExtension(f, EXTENSION_MEAL);
      const hasParking = this.hasExtension(f, EXTENSION_PARKING);
      return {
        previewData: {
          title: pd?.title ?? EMPTY,
          image: image ? `/api/file/${image.fileKey}` : null,
          credit: block(pd?.credit),
          custom: block(pd?.custom),
          meal: { ...meal, show: meal.show && hasMeal },
          parking: { ...parking, show: parking.show && hasParking },
        },
        isCredit: action.isCredit,
        // the test preview shows a sample balance
        credit: action.isCredit ? (person ? (person.credit ?? 0) : 500) : 0,
        unlimited: action.isCredit && Boolean(person?.isUnlimited),
        userDays: days.filter((d) => dayNames.has(d)).map((id) => ({ id, name: dayNames.get(id) ?? EMPTY })),
        mealItems: await this.items(f, EXTENSION_MEAL),
        userMeal: await this.userItems(f, EXTENSION_MEAL),
        parkingItems: await this.items(f, EXTENSION_PARKING),
        userParking: await this.userItems(f, EXTENSION_PARKING),
        allowMealSelect: hasMeal && meal.show && this.selectOpen(meal, subject),
        allowParkingSelect: hasParking && parking.show && this.selectOpen(parking, subject),
        multiLanguage: subject.multiLanguage,
        languages: subject.multiLanguage ? [...LANGUAGES] : (['cs'] as Language[]),
        test: !person,
      };
    });
  }

  /**
   * The person's own selection of one type (spec §7 PUT …/extension/{type}): the whole list, through
   * the extension core (active items only, capacities held, a used meal locked).
   */
  async select(
    subjectKey: string,
    code: string,
    rawType: string,
    items: UserExtensionItem[],
    ip: string,
  ): Promise<PreviewData> {
    const f = await this.find(subjectKey, code, ip);
    const type = /^\d{1,3}$/.test(rawType ?? '') ? Number(rawType) : Number.NaN;
    if (!isExtensionType(type)) throw new AppError('ACTION_EXTENSION_DOESNT_EXIST');
    if (!f.person) throw new AppError('PREVIEW_NOT_FOUND');
    if (!this.hasExtension(f, type)) throw new AppError('ACTION_DOESNT_HAVE_EXTENSION', { type });
    const block = (type === EXTENSION_MEAL ? f.action.previewData?.meal : f.action.previewData?.parking) as
      | PreviewSelectBlock
      | undefined;
    if (!block?.show || !this.selectOpen(block, f.subject)) throw new AppError('PREVIEW_SELECT_CLOSED', { type });

    const person = f.person;
    await runInTenant(f.subject.id, async () => {
      const current = await this.userItems(f, type);
      const offered = new Set((await this.extensions.onlineItems(type, f.action.id)).map((i) => i.id));
      const named = new Map(items.map((i) => [i.itemId, i]));
      const changes: UserExtensionItem[] = [];
      for (const i of items) {
        const had = current.find((c) => c.itemId === i.itemId);
        // a used meal named as it is stays as it is (the core refuses any change to it)
        if (had?.dateUsed && had.option === i.option) continue;
        changes.push({ ...i, have: i.have !== false });
      }
      // what the person has of the offered items and does not name any more is given back
      for (const c of current)
        if (!named.has(c.itemId) && offered.has(c.itemId) && !c.dateUsed)
          changes.push({ itemId: c.itemId, option: c.option, have: false, licencePlate: null });
      await storeChoices(this.ds, null, { subjectId: f.subject.id, actionId: f.action.id, type }, person.id, changes);
    });
    return this.view(f);
  }
}
