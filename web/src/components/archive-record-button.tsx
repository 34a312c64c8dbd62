import { type ArchivablePath, hasRight, type RightPage, withoutArchived } from '@accredo/domain';
import { Alert, Badge, Button, Switch, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconArchive, IconArchiveOff } from '@tabler/icons-react';
import { type QueryKey, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { archiveApi } from '../api/archive';
import { useAdminSession } from '../app/admin-session';
import { notifyError, notifySuccess } from '../app/notify';

/** What the archive and restore buttons need to know of a record and its queries. */
export interface ArchiveTarget {
  /** the right page whose `delete` right archiving needs (as deleting does) */
  page: RightPage;
  path: ArchivablePath;
  id: number;
  name: string;
  archivedAt?: string | null;
  /** the list's query, refetched */
  queryKey: QueryKey;
  /** the record's own query, refetched (the page then shows it archived or restored) */
  recordKey: QueryKey;
  /** other lists that show the record (pickers elsewhere), refetched too */
  alsoInvalidate?: QueryKey[];
}

/** Archives (or restores) the record and refetches what shows it; true when it worked. */
export function useArchive(target: ArchiveTarget) {
  const queryClient = useQueryClient();
  return async (archived: boolean): Promise<boolean> => {
    try {
      await (archived ? archiveApi.archive : archiveApi.restore)(target.path, target.id);
    } catch {
      notifyError(archived ? 'recordArchive.error' : 'recordArchive.restoreError', {}, 'record-archive');
      return false;
    }
    notifySuccess(archived ? 'recordArchive.archived' : 'recordArchive.restored');
    for (const key of [target.recordKey, target.queryKey, ...(target.alsoInvalidate ?? [])])
      void queryClient.invalidateQueries({ queryKey: key });
    return true;
  };
}

/**
 * A detail page's Archive, or Restore on an archived record (issue 15): with the page's `delete`
 * right. Archive asks first; the record stays, hidden from lists and pickers, no target of anything new.
 */
export function ArchiveRecordButton(target: ArchiveTarget) {
  const { t } = useTranslation();
  const session = useAdminSession();
  const setArchived = useArchive(target);
  if (!hasRight(session, target.page, 'delete')) return null;

  if (target.archivedAt)
    return (
      <Button variant="light" leftSection={<IconArchiveOff size={16} aria-hidden />} onClick={() => setArchived(false)}>
        {t('recordArchive.restore')}
      </Button>
    );
  const open = () =>
    modals.openConfirmModal({
      title: t('recordArchive.title'),
      children: <Text size="sm">{t('recordArchive.text', { name: target.name })}</Text>,
      labels: { confirm: t('recordArchive.button'), cancel: t('basics.cancel') },
      onConfirm: () => void setArchived(true),
    });
  return (
    <Button variant="default" leftSection={<IconArchive size={16} aria-hidden />} onClick={open}>
      {t('recordArchive.button')}
    </Button>
  );
}

/** Above an archived record's form: it is archived, and what that means. */
export function ArchivedNotice({ archivedAt }: { archivedAt?: string | null }) {
  const { t } = useTranslation();
  if (!archivedAt) return null;
  return (
    <Alert color="gray" icon={<IconArchive size={18} aria-hidden />} title={t('recordArchive.archived')} mb="md">
      {t('recordArchive.banner')}
    </Alert>
  );
}

/** Beside an archived record's name in a list. */
export function ArchivedBadge({ archivedAt }: { archivedAt?: string | null }) {
  const { t } = useTranslation();
  return archivedAt ? (
    <Badge color="gray" variant="light" ml="xs">
      {t('recordArchive.archived')}
    </Badge>
  ) : null;
}

/** A list's "Show archived" switch. */
export function ShowArchivedSwitch({ checked, onChange }: { checked: boolean; onChange: (checked: boolean) => void }) {
  const { t } = useTranslation();
  return (
    <Switch
      label={t('recordArchive.showArchived')}
      checked={checked}
      onChange={(e) => onChange(e.currentTarget.checked)}
    />
  );
}

/**
 * A list's archived rows (issue 15): hidden until "Show archived" is on, remembered in the address
 * (`?archived=1`) so that going back to the list keeps the choice.
 */
export function useArchivedFilter<T extends { id: number; archivedAt?: string | null }>(rows: T[] | undefined) {
  const [params, setParams] = useSearchParams();
  const showArchived = params.get('archived') === '1';
  const setShowArchived = (on: boolean) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (on) next.set('archived', '1');
        else next.delete('archived');
        return next;
      },
      { replace: true },
    );
  const visible = rows === undefined ? undefined : showArchived ? rows : withoutArchived(rows);
  const anyArchived = (rows ?? []).some((r) => r.archivedAt);
  const toggle =
    anyArchived || showArchived ? <ShowArchivedSwitch checked={showArchived} onChange={setShowArchived} /> : null;
  return { visible, toggle };
}
