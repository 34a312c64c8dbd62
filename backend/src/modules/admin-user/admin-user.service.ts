import {
  type AdminUser,
  type adminUserCreateSchema,
  type adminUserUpdateSchema,
  type manageAdminUserCreateSchema,
  type manageAdminUserUpdateSchema,
  normalizeRights,
  type profileSchema,
} from '@accredo/domain';
import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { type Repository } from 'typeorm';
import type { z } from 'zod';
import { AppError } from '../../common/app-error.js';
import { assertOwned } from '../../common/crud.js';
import { hashPassword } from '../../common/crypto.js';
import type { AdminAuth } from '../../common/request.js';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { currentSubjectId, runInTenant, TenantRepository } from '../../database/tenant.js';
import { ActionEntity } from '../action/action.entity.js';
import { AccountLinkEntity } from '../session/account-link.entity.js';
import { AccountLinkService } from '../session/account-link.service.js';
import { TokenService } from '../session/token.service.js';
import { SubjectEntity } from '../subject/subject.entity.js';
import { toAdminUser } from './admin-user.dto.js';
import { AdminUserEntity } from './admin-user.entity.js';

type CreateInput = z.output<typeof adminUserCreateSchema>;
type UpdateInput = z.output<typeof adminUserUpdateSchema>;
type ManageCreateInput = z.output<typeof manageAdminUserCreateSchema>;
type ManageUpdateInput = z.output<typeof manageAdminUserUpdateSchema>;

/**
 * System users. The admin application works inside the current subject (tenant repository); the
 * manage module works across subjects and names the subject explicitly.
 */
@Injectable()
export class AdminUserService {
  private readonly scoped: TenantRepository<AdminUserEntity>;
  private readonly actions: TenantRepository<ActionEntity>;

  constructor(
    @InjectRepository(AdminUserEntity) private readonly users: Repository<AdminUserEntity>,
    @InjectRepository(SubjectEntity) private readonly subjects: Repository<SubjectEntity>,
    @InjectRepository(ActionEntity) actions: Repository<ActionEntity>,
    private readonly links: AccountLinkService,
    private readonly tokens: TokenService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.scoped = new TenantRepository(users);
    this.actions = new TenantRepository(actions);
  }

  // ---- admin application (current subject) ----

  async list(): Promise<AdminUser[]> {
    const rows = await this.scoped.find({ order: { login: 'ASC' } });
    const actions = new Map(
      (await this.actions.find({ select: { id: true, name: true, subjectId: true } })).map((a) => [a.id, a.name]),
    );
    return rows.map((u) => ({
      ...toAdminUser(u),
      lastActionName: u.lastActionId ? (actions.get(u.lastActionId) ?? null) : null,
    }));
  }

  async get(id: number): Promise<AdminUser> {
    return toAdminUser(await this.scoped.get(id));
  }

  async create(input: CreateInput, actor: AdminAuth): Promise<AdminUser> {
    await assertOwned(this.actions, [input.actionId], 'actionId');
    const user = this.scoped.create({
      verified: false,
      superuser: false,
      manageuser: false,
      rights: normalizeRights({}),
    });
    await this.apply(user, input, { rights: canEditRights(actor) });
    const saved = await this.saveUnique(() => this.scoped.save(user));
    await this.links.sendVerification(saved, await this.subjectName(saved.subjectId), actor.user.language);
    return toAdminUser(saved);
  }

  async update(id: number, input: UpdateInput, actor: AdminAuth): Promise<AdminUser> {
    const user = await this.scoped.get(id);
    // Only a superuser or manageuser may change the account of one (its password, its login).
    if ((user.superuser || user.manageuser) && !canEditRights(actor)) throw new AppError('FORBIDDEN');
    await assertOwned(this.actions, [input.actionId], 'actionId');
    await this.apply(user, input, { rights: canEditRights(actor) });
    const saved = await this.saveUnique(() => this.scoped.save(user));
    if (!saved.active) await this.tokens.revokeAll('admin', saved.id);
    // rights, login, password... take effect on the user's very next request
    else await this.tokens.principalChanged('admin', saved.id);
    return toAdminUser(saved);
  }

  /**
   * DELETE admin-user/{id} (issue 15). Nobody deletes their own account (409 ADMIN_USER_DELETE_SELF:
   * the last admin could lock the subject out); a superuser or manage user is deleted only by one
   * (as for update). Their sessions end at once and their open account links stop working; what
   * they did (history, print log, mails) keeps their id.
   */
  async remove(id: number, actor: AdminAuth): Promise<void> {
    const user = await this.scoped.get(id);
    if (user.id === actor.user.id) throw new AppError('ADMIN_USER_DELETE_SELF');
    if ((user.superuser || user.manageuser) && !canEditRights(actor)) throw new AppError('FORBIDDEN');
    await this.users.manager.transaction(async (m) => {
      await m.delete(AccountLinkEntity, { adminUserId: user.id });
      await m.delete(AdminUserEntity, { id: user.id, subjectId: user.subjectId });
    });
    await this.tokens.revokeAll('admin', user.id);
  }

  /** Manual verification (spec §4: manage-user only; the guard checks the role). */
  async verify(id: number): Promise<AdminUser> {
    const user = await this.scoped.get(id);
    if (user.verified) throw new AppError('ADMIN_USER_ALREADY_VERIFIED');
    user.verified = true;
    user.updatedAt = new Date();
    const saved = await this.scoped.save(user);
    await this.tokens.principalChanged('admin', saved.id);
    return toAdminUser(saved);
  }

  async sendPasswordRequest(id: number, actor: AdminAuth): Promise<void> {
    const user = await this.scoped.get(id);
    await this.links.sendPasswordLink(user, actor.user.language);
  }

  async updateProfile(actor: AdminAuth, input: z.output<typeof profileSchema>): Promise<AdminUser> {
    const user = await this.users.findOneByOrFail({ id: actor.user.id });
    user.name = input.name;
    if (input.language) user.language = input.language;
    if (input.password) {
      user.passwordHash = await hashPassword(input.password, this.config.passwordHashCost);
      await this.tokens.revokeAll('admin', user.id, actor.token.id);
    }
    user.updatedAt = new Date();
    const saved = await this.users.save(user);
    await this.tokens.principalChanged('admin', saved.id);
    return toAdminUser(saved, await this.subjects.findOneByOrFail({ id: actor.subjectId }));
  }

  // ---- manage module (explicit subject) ----

  async manageList(subjectId?: number): Promise<AdminUser[]> {
    const rows = await this.users.find({ where: subjectId ? { subjectId } : {}, order: { login: 'ASC' } });
    const subjects = new Map((await this.subjects.find()).map((s) => [s.id, s]));
    return rows.map((u) => toAdminUser(u, subjects.get(u.subjectId)));
  }

  async manageGet(id: number): Promise<AdminUser> {
    const user = await this.users.findOneBy({ id });
    if (!user) throw AppError.notFound();
    return toAdminUser(user, (await this.subjects.findOneBy({ id: user.subjectId })) ?? undefined);
  }

  async manageCreate(input: ManageCreateInput): Promise<AdminUser> {
    const subject = await this.requireSubject(input.subjectId);
    await runInTenant(subject.id, () => assertOwned(this.actions, [input.actionId], 'actionId'));
    const now = new Date();
    const user = this.users.create({
      verified: false,
      rights: normalizeRights({}),
      createdAt: now,
      subjectId: subject.id,
    });
    await this.apply(user, input, { rights: true });
    user.superuser = input.superuser;
    user.manageuser = input.manageuser;
    const saved = await this.saveUnique(() => this.users.save(user));
    await this.links.sendVerification(saved, subject.name);
    return toAdminUser(saved, subject);
  }

  async manageUpdate(id: number, input: ManageUpdateInput): Promise<AdminUser> {
    const user = await this.users.findOneBy({ id });
    if (!user) throw AppError.notFound();
    const subject = await this.requireSubject(input.subjectId);
    await runInTenant(subject.id, () => assertOwned(this.actions, [input.actionId], 'actionId'));
    await this.apply(user, input, { rights: true });
    user.subjectId = subject.id;
    user.superuser = input.superuser;
    user.manageuser = input.manageuser;
    const saved = await this.saveUnique(() => this.users.save(user));
    if (!saved.active) await this.tokens.revokeAll('admin', saved.id);
    else await this.tokens.principalChanged('admin', saved.id);
    return toAdminUser(saved, subject);
  }

  // ---- shared ----

  private async apply(
    user: AdminUserEntity,
    input: CreateInput | UpdateInput,
    allow: { rights: boolean },
  ): Promise<void> {
    const existing = await this.users.findOneBy({ login: input.login });
    if (existing && existing.id !== user.id)
      throw new AppError('USER_EXIST', { fields: [{ path: 'login', key: 'errors.USER_EXIST' }] });
    user.login = input.login;
    user.name = input.name;
    user.active = input.active;
    user.actionId = input.actionId ?? null;
    if (allow.rights && input.rights) user.rights = input.rights;
    if (input.password) user.passwordHash = await hashPassword(input.password, this.config.passwordHashCost);
    user.createdAt ??= new Date();
    user.updatedAt = new Date();
  }

  /** The unique index is the last word on duplicate logins (two creates at the same moment). */
  private async saveUnique(save: () => Promise<AdminUserEntity>): Promise<AdminUserEntity> {
    try {
      return await save();
    } catch (err) {
      if (/unique|duplicate/i.test((err as Error).message)) {
        throw new AppError('USER_EXIST', { fields: [{ path: 'login', key: 'errors.USER_EXIST' }] });
      }
      throw err;
    }
  }

  private async requireSubject(id: number): Promise<SubjectEntity> {
    const subject = await this.subjects.findOneBy({ id });
    if (!subject) throw AppError.validation([{ path: 'subjectId', key: 'errors.SUBJECT_DOESNT_EXIST' }]);
    return subject;
  }

  private async subjectName(id: number = currentSubjectId()): Promise<string> {
    return (await this.subjects.findOneBy({ id }))?.name ?? '';
  }
}

export function canEditRights(actor: AdminAuth): boolean {
  return actor.user.superuser || actor.user.manageuser;
}
