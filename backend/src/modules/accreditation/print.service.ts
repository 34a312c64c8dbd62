import { formatBadgeCode } from '@accredo/access';
import { type AccreditationDto, effectiveLanguage, type PrintErrorCode, type printSchema } from '@accredo/domain';
import { translate } from '@accredo/i18n';
import {
  buildContext,
  type CompiledTemplate,
  compileTemplate,
  isTemplateError,
  type PrintPage,
  printDocument,
} from '@accredo/templates';
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { type DataSource, In, LessThan, type Repository } from 'typeorm';
import type { z } from 'zod';
import { AppError } from '../../common/app-error.js';
import type { AdminAuth } from '../../common/request.js';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { retryingTransaction } from '../../database/core-runner.js';
import { currentSubjectId, TenantRepository } from '../../database/tenant.js';
import { ActionEntity } from '../action/action.entity.js';
import { GroupEntity } from '../groups/group.entity.js';
import { SubjectEntity } from '../subject/subject.entity.js';
import { TemplateEntity } from '../template/template.entity.js';
import { ZoneEntity } from '../zone/zone.entity.js';
import { AccreditationEntity } from './accreditation.entity.js';
import { AccreditationService } from './accreditation.service.js';
import { PrintLogEntity } from './print-log.entity.js';

type PrintInput = z.output<typeof printSchema>;

/** Most badges one print call renders: a bigger run is split by filter (about 2 kB of HTML each). */
export const PRINT_MAX = 5000;
/** People loaded and rendered at a time. */
const CHUNK = 200;

export interface PrintError {
  /** the accreditation id */
  user: number;
  error: PrintErrorCode | 'NOT_FOUND';
  name?: string;
}

/** What rendering the badges of one print call needs, loaded once. */
export interface PrintRun {
  ids: number[];
  action: ActionEntity;
  subject: SubjectEntity;
  language: string;
  fields: Awaited<ReturnType<AccreditationService['actionFields']>>;
  title: string;
  compiled: Map<number, CompiledTemplate | Error>;
  /** the people asked for but not found */
  error: PrintError[];
  /**
   * "Replace the old badge" (docs/access-control.md "Badge versions"): each badge is printed with
   * the person's next version, which `record` makes the valid one.
   */
  replace: boolean;
}

export interface PrintResult {
  /** one HTML document, one badge per page; null when no badge could be printed */
  data: string | null;
  fileName: string;
  error: PrintError[];
  printed: number;
}

/**
 * Badge printing (spec §2 options: print, §7 user/print): each person's badge is rendered with the
 * accreditation template of their group (the first of their groups that has one) by the one engine
 * of libs/templates, into one HTML document the browser prints. Every printed badge is recorded in
 * `print_log` and counted in `printCount` (the list's 'printed' filter).
 */
@Injectable()
export class PrintService {
  private readonly actions: TenantRepository<ActionEntity>;
  private readonly groups: TenantRepository<GroupEntity>;
  private readonly zones: TenantRepository<ZoneEntity>;
  private readonly templates: TenantRepository<TemplateEntity>;

  constructor(
    private readonly accreditations: AccreditationService,
    @InjectRepository(ActionEntity) actions: Repository<ActionEntity>,
    @InjectRepository(GroupEntity) groups: Repository<GroupEntity>,
    @InjectRepository(ZoneEntity) zones: Repository<ZoneEntity>,
    @InjectRepository(TemplateEntity) templates: Repository<TemplateEntity>,
    @InjectRepository(SubjectEntity) private readonly subjects: Repository<SubjectEntity>,
    @InjectDataSource() private readonly ds: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.actions = new TenantRepository(actions);
    this.groups = new TenantRepository(groups);
    this.zones = new TenantRepository(zones);
    this.templates = new TenantRepository(templates);
  }

  async print(input: PrintInput, actor: AdminAuth): Promise<PrintResult> {
    const run = await this.prepare(input, actor);
    const { pages, printed, error, versions } = await this.render(run, run.ids);
    if (printed.length) await this.record(printed, actor.user.id, { versions, replace: run.replace });
    return {
      data: pages.length ? printDocument(pages, { title: run.title, lang: run.language }) : null,
      fileName: this.fileName(input.actionId, 'html'),
      error: [...run.error, ...error],
      printed: printed.length,
    };
  }

  fileName(actionId: number, ext: 'html' | 'pdf'): string {
    return `badges-${actionId}-${new Date().toISOString().slice(0, 10)}.${ext}`;
  }

  /**
   * The people of a print call (the same selection as every bulk call: the ids of this action, or
   * the whole filter) and what rendering them needs; the ids not found are listed already.
   */
  async prepare(
    input: Pick<PrintInput, 'actionId' | 'userId' | 'all' | 'filterData'> & { replace?: boolean },
    actor: AdminAuth,
  ): Promise<PrintRun> {
    const ids = await this.accreditations.resolveIds(input.actionId, input.userId, input.all, input.filterData);
    if (!ids.length) throw input.all ? new AppError('NOTHING_TO_PRINT') : AppError.notFound();
    if (ids.length > PRINT_MAX) throw new AppError('TOO_MANY_TO_PRINT', { count: ids.length, max: PRINT_MAX });
    const run = await this.runFor(input.actionId, ids, actor.user.language, input.replace ?? false);
    if (!input.all) {
      const found = new Set(ids);
      for (const id of new Set(input.userId)) if (!found.has(id)) run.error.push({ user: id, error: 'NOT_FOUND' });
    }
    return run;
  }

  /** A print run of known ids (a PDF job picks its run up again by this); in the tenant scope. */
  async runFor(actionId: number, ids: number[], adminLanguage: string, replace = false): Promise<PrintRun> {
    const action = await this.actions.findOne({ id: actionId });
    if (!action) throw new AppError('ACTION_DOESNT_EXIST');
    const subject = await this.subjects.findOneByOrFail({ id: currentSubjectId() });
    const language = effectiveLanguage(adminLanguage, subject.multiLanguage);
    const fields = await this.accreditations.actionFields(action);
    const title = translate(language, 'templateEngine.printWindowTitle');
    return { ids, action, subject, language, fields, title, compiled: new Map(), error: [], replace };
  }

  /**
   * Renders the badges of some ids of a run, 200 people at a time, with the reasons of those left
   * out; `versions` is the badge version each printed badge carries (the next one when replacing).
   */
  async render(
    run: PrintRun,
    ids: number[],
  ): Promise<{ pages: PrintPage[]; printed: number[]; error: PrintError[]; versions: Map<number, number> }> {
    const { action, subject, language, fields, compiled } = run;
    const error: PrintError[] = [];
    const pages: PrintPage[] = [];
    const printed: number[] = [];
    const versions = new Map<number, number>();
    for (let i = 0; i < ids.length; i += CHUNK) {
      // the code each badge carries: the valid version's, or the next one's when replacing
      const people = (await this.accreditations.byIds(ids.slice(i, i + CHUNK))).map((p) => ({
        ...p,
        badgeCode: formatBadgeCode(p.bc, this.versionOf(p, run)),
      }));
      const [groups, zones] = await Promise.all([
        this.byId(
          this.groups,
          people.flatMap((p) => p.groupIds),
        ),
        this.byId(
          this.zones,
          people.flatMap((p) => p.zoneIds),
        ),
      ]);
      const templates = await this.byId(
        this.templates,
        [...groups.values()].flatMap((g) => (g.adminTemplateId ? [g.adminTemplateId] : [])),
      );
      for (const person of people) {
        const name = `${person.firstname} ${person.lastname}`;
        // the first group (by id, as the mail's {{group}}) that has a template prints the badge
        const group = [...person.groupIds]
          .sort((a, b) => a - b)
          .map((id) => groups.get(id))
          .find((g) => g?.adminTemplateId);
        const template = group?.adminTemplateId ? templates.get(group.adminTemplateId) : undefined;
        if (!group || !template) {
          error.push({ user: person.id, error: person.groupIds.length ? 'PRINT_NO_TEMPLATE' : 'PRINT_NO_GROUP', name });
          continue;
        }
        const render = this.compile(compiled, template);
        if (render instanceof Error) {
          error.push({ user: person.id, error: 'TEMPLATE_SYNTAX_ERROR', name });
          continue;
        }
        try {
          pages.push({
            html: render(this.context(person, action, group, groups, zones, fields, subject, language)),
            pageSize: template.pageSize,
          });
          printed.push(person.id);
          versions.set(person.id, this.versionOf(person, run));
        } catch (err) {
          if (!isTemplateError(err)) throw err;
          error.push({ user: person.id, error: 'TEMPLATE_SYNTAX_ERROR', name });
        }
      }
    }
    return { pages, printed, error, versions };
  }

  /** The badge version a print of this run gives the person: the valid one, or the next when replacing. */
  private versionOf(person: AccreditationDto, run: Pick<PrintRun, 'replace'>): number {
    return (person.badgeVersion ?? 0) + (run.replace ? 1 : 0);
  }

  private context(
    person: AccreditationDto,
    action: ActionEntity,
    group: GroupEntity,
    groups: Map<number, GroupEntity>,
    zones: Map<number, ZoneEntity>,
    fields: Awaited<ReturnType<AccreditationService['actionFields']>>,
    subject: SubjectEntity,
    language: string,
  ) {
    // {{bc}} (QR or Code 128) and the smart link carry the badge's code, `{bc}-{version}` once replaced
    const code = person.badgeCode ?? person.bc;
    return buildContext({
      accreditation: { ...person, bc: code },
      action,
      group,
      // every group of the person, for {{#ifGroup}}
      groups: [...person.groupIds].sort((a, b) => a - b).flatMap((id) => groups.get(id) ?? []),
      zones: [...person.zoneIds].sort((a, b) => a - b).flatMap((id) => zones.get(id) ?? []),
      fields,
      imageUrl: person.image?.path ?? null,
      smartLink: `${this.config.publicUrl}/preview/${encodeURIComponent(subject.key)}/cid/${encodeURIComponent(code)}`,
      language,
    });
  }

  private compile(cache: Map<number, CompiledTemplate | Error>, template: TemplateEntity): CompiledTemplate | Error {
    let entry = cache.get(template.id);
    if (!entry) {
      try {
        entry = compileTemplate(template.htmlData);
      } catch (err) {
        if (!isTemplateError(err)) throw err;
        entry = err;
      }
      cache.set(template.id, entry);
    }
    return entry;
  }

  private async byId<T extends { id: number; subjectId: number }>(
    repo: TenantRepository<T>,
    ids: number[],
  ): Promise<Map<number, T>> {
    const unique = [...new Set(ids)];
    if (!unique.length) return new Map();
    const rows = await repo.find({ where: { id: In(unique) } as never });
    return new Map(rows.map((r) => [r.id, r]));
  }

  /**
   * One print entry per badge and the counts, in one transaction. With `replace` (the badges were
   * rendered with each person's next version, see `render`) the printed version becomes the valid
   * one in the same transaction, and the entry records the version it retired: the old badge's
   * code is refused at every gate from the commit on (BADGE_SUPERSEDED). `updatedAt` moves with it,
   * so the change feed (migration 1764000400000 watches it) brings the new version to the stations.
   * Two replacing prints of one person at the same moment both print, and make valid, the same
   * next version (the update only raises it).
   */
  async record(
    ids: number[],
    adminUserId: number | null,
    badges: { versions?: Map<number, number>; replace?: boolean } = {},
  ) {
    const subjectId = currentSubjectId();
    const now = new Date();
    const versions = badges.versions ?? new Map<number, number>();
    const replace = badges.replace ?? false;
    await retryingTransaction(this.ds, async (m) => {
      const accreditations = m.getRepository(AccreditationEntity);
      for (let i = 0; i < ids.length; i += 500) {
        const chunk = ids.slice(i, i + 500);
        await accreditations
          .createQueryBuilder()
          .update()
          .set({ printCount: () => `${m.connection.driver.escape('printCount')} + 1` })
          .where({ id: In(chunk), subjectId })
          .execute();
        if (replace) {
          const byVersion = new Map<number, number[]>();
          for (const id of chunk) {
            const v = versions.get(id) ?? 1;
            byVersion.set(v, [...(byVersion.get(v) ?? []), id]);
          }
          for (const [version, people] of byVersion)
            await accreditations
              .createQueryBuilder()
              .update()
              .set({ badgeVersion: version, badgeReplacedAt: now, updatedAt: now })
              .where({ id: In(people), subjectId, badgeVersion: LessThan(version) })
              .execute();
        }
        await m.getRepository(PrintLogEntity).insert(
          chunk.map((accreditationId) => {
            const badgeVersion = versions.get(accreditationId) ?? 0;
            return {
              subjectId,
              accreditationId,
              adminUserId,
              badgeVersion,
              retiredVersion: replace ? badgeVersion - 1 : null,
              createdAt: now,
            };
          }),
        );
      }
    });
  }
}
