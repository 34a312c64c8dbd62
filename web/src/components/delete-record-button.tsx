import { ERRORS, type ErrorCode, hasRight, type RightPage } from '@accredo/domain';
import { Button, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconTrash } from '@tabler/icons-react';
import { type QueryKey, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { isApiError } from '../api/client';
import { useAdminSession } from '../app/admin-session';
import { notifyError, notifySuccess } from '../app/notify';
import { type ArchiveTarget, useArchive } from './archive-record-button';

/** The refusals of a record in use that archiving answers (issue 15). */
const ARCHIVE_INSTEAD = new Set<string>([
  'ACTION_HAS_ACCREDITATIONS',
  'WEB_CHANNEL_HAS_REGISTRATIONS',
  'GROUP_HAS_PEOPLE',
  'TEMPLATE_IN_USE',
]);

/** The message of a refused delete in the UI language: its code's text filled with its details (what still uses the record). */
export function deleteErrorMessage(error: unknown): { key: string; params: Record<string, unknown> } {
  if (isApiError(error) && error.code in ERRORS && error.status !== 500)
    return { key: ERRORS[error.code as ErrorCode].key, params: { ...error.details } };
  return { key: 'recordDelete.error', params: {} };
}

/**
 * A detail page's Delete (issue 15): only with the page's `delete` right; asks first, then deletes,
 * drops the record's queries and goes back to the list. A refusal (409: something still uses the
 * record) is shown as its message and the page stays.
 */
export function DeleteRecordButton({
  page,
  name,
  remove,
  listPath,
  queryKey,
  recordKey,
  alsoInvalidate = [],
  archive,
}: {
  page: RightPage;
  name: string;
  remove: () => Promise<unknown>;
  listPath: string;
  /** the list's query, refetched */
  queryKey: QueryKey;
  /** other lists that show the record (selects elsewhere), refetched too */
  alsoInvalidate?: QueryKey[];
  /** the record's own query, dropped (a refetch would only find it gone) */
  recordKey: QueryKey;
  /** a record that can be archived (issue 15): a refusal because it is in use offers "Archive instead" */
  archive?: ArchiveTarget;
}) {
  const { t } = useTranslation();
  const session = useAdminSession();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const setArchived = useArchive(archive ?? { page, path: 'action', id: 0, name, queryKey, recordKey });
  if (!hasRight(session, page, 'delete')) return null;

  /** The refusal says what still uses the record, and offers to archive it instead. */
  const offerArchive = (message: string) =>
    modals.openConfirmModal({
      title: t('recordArchive.refusedTitle'),
      children: (
        <>
          <Text size="sm" mb="sm">
            {message}
          </Text>
          <Text size="sm">{t('recordArchive.insteadHint')}</Text>
        </>
      ),
      labels: { confirm: t('recordArchive.instead'), cancel: t('basics.cancel') },
      onConfirm: () => void setArchived(true),
    });

  const open = () =>
    modals.openConfirmModal({
      title: t('recordDelete.title'),
      children: <Text size="sm">{t('recordDelete.text', { name })}</Text>,
      labels: { confirm: t('recordDelete.button'), cancel: t('basics.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: async () => {
        try {
          await remove();
        } catch (error) {
          const { key, params } = deleteErrorMessage(error);
          if (archive && !archive.archivedAt && isApiError(error) && ARCHIVE_INSTEAD.has(error.code)) {
            offerArchive(t(key, params));
            return;
          }
          notifyError(key, params, 'record-delete');
          return;
        }
        notifySuccess('recordDelete.deleted');
        queryClient.removeQueries({ queryKey: recordKey, exact: true });
        // the record's own query is gone already, so a refetch under the list's key never asks for it
        for (const key of [queryKey, ...alsoInvalidate]) void queryClient.invalidateQueries({ queryKey: key });
        navigate(listPath);
      },
    });

  return (
    <Button color="red" variant="light" leftSection={<IconTrash size={16} aria-hidden />} onClick={open}>
      {t('recordDelete.button')}
    </Button>
  );
}
