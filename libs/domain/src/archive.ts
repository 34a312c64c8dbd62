/**
 * Archived records (issue 15). A record that cannot be deleted because it is in use — an action with
 * people, a web channel with registrations, a group with people, a template a group prints with —
 * can be archived instead: it keeps everything that refers to it, but it is no target of anything
 * new. The admin API answers `archivedAt` (ISO time, null: in use) on each; `POST <entity>/{id}/archive`
 * and `/restore` switch it, with the entity's delete right.
 */
export interface Archivable {
  archivedAt: string | null;
}

/** The entities that can be archived, by their API path. */
export const ARCHIVABLE = ['action', 'web-channel', 'groups', 'template'] as const;
export type ArchivablePath = (typeof ARCHIVABLE)[number];

export function isArchived(row: { archivedAt?: string | null } | null | undefined): boolean {
  return Boolean(row?.archivedAt);
}

/**
 * What a picker or a list offers: the records in use, and of the archived ones only those already
 * chosen (`keep`), so that a form keeps showing a value it holds.
 */
export function withoutArchived<T extends { id: number; archivedAt?: string | null }>(
  rows: readonly T[],
  keep: readonly (number | null | undefined)[] = [],
): T[] {
  const kept = new Set(keep);
  return rows.filter((r) => !r.archivedAt || kept.has(r.id));
}
