import type { FindOptionsWhere } from 'typeorm';
import { In, IsNull, Not } from 'typeorm';
import type { SubjectOwned, TenantRepository } from '../database/tenant.js';
import { AppError } from './app-error.js';

/** A row that can be archived instead of deleted (issue 15, docs/archive.md). */
export interface ArchivableRow extends SubjectOwned {
  archivedAt: Date | null;
  updatedAt: Date;
}

/**
 * POST <entity>/{id}/archive and /restore: sets or clears `archivedAt` of a row of the current
 * subject (another subject's id is a 404). Archiving an archived row keeps its first time.
 */
export async function setArchived<T extends ArchivableRow>(
  scoped: TenantRepository<T>,
  id: number,
  archived: boolean,
): Promise<T> {
  const row = await scoped.get(id);
  if (Boolean(row.archivedAt) === archived) return row;
  const now = new Date();
  await scoped.repo.update(
    { id: row.id, subjectId: row.subjectId } as FindOptionsWhere<T>,
    {
      archivedAt: archived ? now : null,
      updatedAt: now,
    } as never,
  );
  return scoped.get(id);
}

/** The ISO time of the answer (null: in use). */
export const archivedAtOf = (row: { archivedAt?: Date | null }): string | null =>
  row.archivedAt ? row.archivedAt.toISOString() : null;

/**
 * Refuses archived rows among ids newly chosen for something (a person's groups, a group's
 * template): a validation error on the field with `key`. Ids already held (`held`) stay allowed,
 * so a form that keeps an archived value can still be saved.
 */
export async function refuseArchived<T extends ArchivableRow>(
  scoped: TenantRepository<T>,
  ids: (number | null | undefined)[],
  path: string,
  key: string,
  held: readonly number[] = [],
): Promise<void> {
  const kept = new Set(held);
  const wanted = [...new Set(ids.filter((id): id is number => typeof id === 'number' && !kept.has(id)))];
  if (!wanted.length) return;
  const archived = await scoped.find({
    where: { id: In(wanted), archivedAt: Not(IsNull()) } as unknown as FindOptionsWhere<T>,
    select: { id: true } as never,
  });
  if (archived.length) throw AppError.validation([{ path, key }]);
}
