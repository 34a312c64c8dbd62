import { hasRight, withoutArchived } from '@accredo/domain';
import { Select } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ACTION_LIST_KEY, type ActionDto, actionApi, localized } from '../../api/action';
import { adminApi } from '../../api/admin';
import { STORAGE_KEYS, writeStorage } from '../../api/storage';
import { useAdminSession } from '../../app/admin-session';
import { notifyError } from '../../app/notify';

export const ACTUAL_USER_KEY = ['admin', 'actual'] as const;

export interface CurrentAction {
  /** the current action's id: the remembered lastAction when it still exists, else the newest action */
  actionId: number | null;
  action: ActionDto | null;
  actions: ActionDto[];
  isLoading: boolean;
  /** remembers another action for the user (PUT actual/action) */
  setActionId: (actionId: number | null) => void;
  isSaving: boolean;
}

/**
 * The current action every action-scoped screen works in (spec §2 Layout: the action switcher),
 * remembered per user as lastAction (GET actual) and changed with PUT actual/action.
 */
export function useCurrentAction(): CurrentAction {
  const session = useAdminSession();
  const queryClient = useQueryClient();
  const actual = useQuery({ queryKey: ACTUAL_USER_KEY, queryFn: adminApi.getActual, staleTime: 60_000 });
  const list = useQuery({
    queryKey: ACTION_LIST_KEY,
    queryFn: actionApi.list,
    enabled: hasRight(session, 'action', 'get'),
  });
  const change = useMutation({
    mutationFn: actionApi.setCurrent,
    onSuccess: ({ lastAction }) => {
      writeStorage(STORAGE_KEYS.currentAction, lastAction === null ? null : String(lastAction));
      queryClient.setQueryData(ACTUAL_USER_KEY, (old: Record<string, unknown> | undefined) =>
        old ? { ...old, lastAction } : old,
      );
    },
    onError: () => notifyError('action.currentError'),
  });

  const actions = list.data ?? [];
  const remembered = change.isPending ? change.variables : actual.data?.lastAction;
  // without a remembered one, the first action in use (archived ones only when chosen, issue 15)
  const action = actions.find((a) => a.id === remembered) ?? withoutArchived(actions)[0] ?? actions[0] ?? null;
  return {
    actionId: action?.id ?? null,
    action,
    actions,
    isLoading: actual.isLoading || list.isLoading,
    setActionId: (actionId) => change.mutate(actionId),
    isSaving: change.isPending,
  };
}

/** The top bar's action switcher (spec §2 Layout), for the accreditation pages. */
export function ActionSwitcher() {
  const { t, i18n } = useTranslation();
  const current = useCurrentAction();
  return (
    <Select<number>
      label={t('action.current')}
      size="xs"
      w={220}
      searchable
      allowDeselect={false}
      disabled={current.isSaving || current.actions.length === 0}
      placeholder={current.isLoading ? t('basics.loading') : t('action.noActions')}
      nothingFoundMessage={t('basics.noData')}
      data={withoutArchived(current.actions, [current.actionId]).map((a) => ({
        value: a.id,
        label: localized(a.name, i18n.language),
      }))}
      value={current.actionId}
      onChange={(value) => {
        if (value !== null && value !== current.actionId) current.setActionId(value);
      }}
    />
  );
}
