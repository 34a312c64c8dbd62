import { hasRight } from '@accredo/domain';
import { Anchor, Button } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { type GroupDto, groupsApi } from '../../api/groups';
import { useAdminSession } from '../../app/admin-session';
import { DataTable, type DataTableColumn } from '../../components/data-table';
import { LoadingState } from '../../components/loading-state';
import { PageHeader } from '../../components/page-header';
import {
  ActionsLoadNotice,
  ActionTabs,
  NameBadges,
  tabActionId,
  useActionOptions,
  useActionTabs,
  useLocalized,
  useTabParam,
} from './setup-shared';

export const GROUPS_KEY = ['admin', 'groups'] as const;

const groupActionId = (g: GroupDto) => g.actionId;
const groupActionName = (g: GroupDto) => g.actionName;

/** `/groups` (spec §2): the groups tabbed by action, plus 'not assigned' for groups without one. */
export function GroupListPage() {
  const { t } = useTranslation();
  const session = useAdminSession();
  const navigate = useNavigate();
  const localized = useLocalized();
  const groups = useQuery({ queryKey: GROUPS_KEY, queryFn: groupsApi.list });
  const { actions, pending, failed } = useActionOptions();
  const items = groups.data ?? [];
  const tabs = useActionTabs({
    items,
    actions,
    getActionId: groupActionId,
    getActionName: groupActionName,
    unassigned: 'always',
  });
  const [tab, setTab] = useTabParam(tabs.map((x) => x.value));
  const actionId = tabActionId(tab);
  const rows = items.filter((g) => g.actionId === actionId);

  const columns: DataTableColumn<GroupDto>[] = [
    { key: 'name', header: t('basics.name'), render: (g) => g.name },
    {
      key: 'displayName',
      header: t('groups.displayName'),
      render: (g) => localized(g.displayName) || t('basics.dash'),
    },
    { key: 'label', header: t('groups.label'), render: (g) => g.label || t('basics.dash') },
    { key: 'template', header: t('groups.template'), render: (g) => g.adminTemplateName ?? t('basics.dash') },
    { key: 'zones', header: t('groups.zones'), render: (g) => <NameBadges items={g.zones} /> },
    {
      key: 'options',
      header: t('basics.options'),
      render: (g) => (
        <Anchor component={Link} to={`/groups/detail/${g.id}`} size="sm" aria-label={`${t('basics.edit')}: ${g.name}`}>
          {t('basics.edit')}
        </Anchor>
      ),
    },
  ];

  const createPath = actionId === null ? '/groups/create' : `/groups/create?actionId=${actionId}`;

  return (
    <>
      <PageHeader title={t('groups.title')}>
        {hasRight(session, 'groups', 'create') && (
          <Button component={Link} to={createPath} leftSection={<IconPlus size={16} />}>
            {t('basics.add')}
          </Button>
        )}
      </PageHeader>
      <ActionsLoadNotice failed={failed} />
      {groups.isPending || pending ? (
        <LoadingState />
      ) : (
        <ActionTabs label={t('groups.byAction')} tabs={tabs} value={tab} onChange={setTab}>
          <DataTable
            label={t('groups.title')}
            columns={columns}
            rows={rows}
            getRowId={(g) => g.id}
            error={groups.isError ? t('groups.loadListError') : undefined}
            emptyText={t('groups.empty')}
            onOpen={(g) => navigate(`/groups/detail/${g.id}`)}
          />
        </ActionTabs>
      )}
    </>
  );
}
