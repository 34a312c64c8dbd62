import { type AdminUser, buildRights, type Language, normalizeRights } from '@accredo/domain';
import type { SubjectEntity } from '../subject/subject.entity.js';
import { toSubjectSummary } from '../subject/subject.dto.js';
import type { AdminUserEntity } from './admin-user.entity.js';

/** Superuser and manageuser hold every right (spec §6); the map says so to the client too. */
export function effectiveRights(user: AdminUserEntity) {
  return user.superuser || user.manageuser ? buildRights(true) : normalizeRights(user.rights);
}

export function toAdminUser(user: AdminUserEntity, subject?: SubjectEntity): AdminUser {
  return {
    id: user.id,
    login: user.login,
    name: user.name,
    active: user.active,
    verified: user.verified,
    superuser: user.superuser,
    manageuser: user.manageuser,
    lastAction: user.lastActionId,
    actionId: user.actionId,
    language: user.language as Language,
    rights: normalizeRights(user.rights),
    subjectId: user.subjectId,
    ...(subject ? { subject: toSubjectSummary(subject) } : {}),
    dateCreate: user.createdAt.toISOString(),
  };
}
