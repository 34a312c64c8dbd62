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
}) {
  const { t } = useTranslation();
  const session = useAdminSession();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  if (!hasRight(session, page, 'delete')) return null;

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
