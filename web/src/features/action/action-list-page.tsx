import { hasRight } from '@accredo/domain';
import { Button } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ACTION_LIST_KEY, type ActionDto, actionApi, localized } from '../../api/action';
import { useAdminSession } from '../../app/admin-session';
import { ArchivedBadge, useArchivedFilter } from '../../components/archive-record-button';
import { DataTable, type DataTableColumn } from '../../components/data-table';
import { PageHeader } from '../../components/page-header';
import { YesNo } from '../admin-user/admin-user-list-page';
import { formatDateTime } from './action-form-values';
import { EditLink } from '../../components/edit-link';

/** `/action` (spec §2): the actions with their dates; double-click or the edit link opens one. */
export function ActionListPage() {
  const { t, i18n } = useTranslation();
  const session = useAdminSession();
  const navigate = useNavigate();
  const actions = useQuery({ queryKey: ACTION_LIST_KEY, queryFn: actionApi.list });
  // archived actions (issue 15) only with "Show archived"
  const archived = useArchivedFilter(actions.data);

  const columns: DataTableColumn<ActionDto>[] = [
    {
      key: 'name',
      header: t('action.name'),
      render: (a) => (
        <>
          {localized(a.name, i18n.language)}
          <ArchivedBadge archivedAt={a.archivedAt} />
        </>
      ),
    },
    { key: 'dateFrom', header: t('action.dateFrom'), render: (a) => formatDateTime(a.dateFrom) || t('basics.dash') },
    { key: 'dateTo', header: t('action.dateTo'), render: (a) => formatDateTime(a.dateTo) || t('basics.dash') },
    { key: 'multiDay', header: t('action.multiDay'), render: (a) => <YesNo value={a.multiDay} /> },
    {
      key: 'options',
      header: t('basics.options'),
      render: (a) => <EditLink to={`/action/detail/${a.id}`} name={localized(a.name, i18n.language)} />,
    },
  ];

  return (
    <>
      <PageHeader title={t('action.title')}>
        {archived.toggle}
        {hasRight(session, 'action', 'create') && (
          <Button component={Link} to="/action/create" leftSection={<IconPlus size={16} />}>
            {t('basics.add')}
          </Button>
        )}
      </PageHeader>
      <DataTable
        label={t('action.title')}
        columns={columns}
        rows={archived.visible}
        getRowId={(a) => a.id}
        loading={actions.isPending}
        error={actions.isError ? t('action.listError') : undefined}
        onOpen={(a) => navigate(`/action/detail/${a.id}`)}
      />
    </>
  );
}
