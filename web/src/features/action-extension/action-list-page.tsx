import { EXTENSION_ROUTE, type ExtensionActionRow, type ExtensionType, hasRight } from '@accredo/domain';
import { Anchor, Group, Switch } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { localized } from '../../api/action';
import { extensionApi } from '../../api/action-extension';
import { useAdminSession } from '../../app/admin-session';
import { notifySuccess } from '../../app/notify';
import { DataTable, type DataTableColumn } from '../../components/data-table';
import { PageHeader } from '../../components/page-header';
import { YesNo } from '../admin-user/admin-user-list-page';
import { formatDateTime } from '../action/action-form-values';
import { extensionKey, notifyExtensionError, type ExtensionSlug, EXTENSION_SLUGS } from './shared';

/**
 * `/action-extension/meal` and `/parking` (spec §2, §4 Extension per action): the subject's actions,
 * each with its activation switch (POST action-extension/{type}/{actionId} {active}); the list reloads
 * after each change. Active actions link to their items and their people.
 */
export function ExtensionActionListPage({ slug }: { slug: ExtensionSlug }) {
  const type: ExtensionType = EXTENSION_SLUGS[slug];
  const { t, i18n } = useTranslation();
  const session = useAdminSession();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const key = extensionKey(type, 'actions');
  const actions = useQuery({ queryKey: key, queryFn: () => extensionApi.actions(type) });
  const [busy, setBusy] = useState<number | null>(null);
  const canActivate = hasRight(session, 'actionExtension', 'active');
  const canSeeUsers = hasRight(session, 'actionExtension', 'getUserExtension');
  const route = EXTENSION_ROUTE[type];

  const toggle = async (row: ExtensionActionRow, active: boolean) => {
    setBusy(row.id);
    try {
      await extensionApi.activate(type, row.id, active);
      notifySuccess(active ? 'extension.activated' : 'extension.deactivated');
    } catch (error) {
      notifyExtensionError(error, 'extension.activateError');
    } finally {
      await queryClient.invalidateQueries({ queryKey: key });
      setBusy(null);
    }
  };

  const name = (row: ExtensionActionRow) => localized(row.name, i18n.language);
  const columns: DataTableColumn<ExtensionActionRow>[] = [
    { key: 'name', header: t('action.name'), render: name },
    { key: 'dateFrom', header: t('action.dateFrom'), render: (a) => formatDateTime(a.dateFrom) || t('basics.dash') },
    { key: 'dateTo', header: t('action.dateTo'), render: (a) => formatDateTime(a.dateTo) || t('basics.dash') },
    { key: 'multiDay', header: t('action.multiDay'), render: (a) => <YesNo value={a.multiDay} /> },
    {
      key: 'active',
      header: t('extension.active'),
      render: (a) => (
        <Switch
          aria-label={`${t('extension.active')}: ${name(a)}`}
          checked={a.active}
          disabled={!canActivate || busy !== null}
          onClick={(event) => event.stopPropagation()}
          onChange={(event) => void toggle(a, event.currentTarget.checked)}
        />
      ),
    },
    {
      key: 'options',
      header: t('basics.options'),
      render: (a) =>
        a.active ? (
          <Group gap="sm" wrap="nowrap">
            <Anchor
              component={Link}
              to={`/action-extension/${route}/detail/${a.id}`}
              size="sm"
              aria-label={`${t('extension.editItems')}: ${name(a)}`}
            >
              {t('extension.editItems')}
            </Anchor>
            {canSeeUsers && (
              <Anchor
                component={Link}
                to={`/action-extension/${route}/${a.id}/users`}
                size="sm"
                aria-label={`${t('extension.users.title')}: ${name(a)}`}
              >
                {t('extension.users.title')}
              </Anchor>
            )}
          </Group>
        ) : (
          t('basics.dash')
        ),
    },
  ];

  return (
    <>
      <PageHeader title={t(`extension.${slug}.title`)} />
      <DataTable
        label={t(`extension.${slug}.title`)}
        columns={columns}
        rows={actions.data}
        getRowId={(a) => a.id}
        loading={actions.isPending}
        error={actions.isError ? t('extension.listError') : undefined}
        emptyText={t('extension.noActions')}
        onOpen={(a) => {
          if (a.active) navigate(`/action-extension/${route}/detail/${a.id}`);
        }}
      />
    </>
  );
}
