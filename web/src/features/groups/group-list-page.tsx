import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { type GroupDto, groupsApi } from '../../api/groups';
import { ArchivedBadge, useArchivedFilter } from '../../components/archive-record-button';
import type { DataTableColumn } from '../../components/data-table';
import { ByActionListPage, NameBadges, useLocalized } from './setup-shared';

export const GROUPS_KEY = ['admin', 'groups'] as const;

const groupActionName = (g: GroupDto) => g.actionName;

/** `/groups` (spec §2): the groups tabbed by action, plus 'not assigned' for groups without one. */
export function GroupListPage() {
  const { t } = useTranslation();
  const localized = useLocalized();
  const groups = useQuery({ queryKey: GROUPS_KEY, queryFn: groupsApi.list });
  // archived groups (issue 15) only with "Show archived"
  const archived = useArchivedFilter(groups.data);
  const columns: DataTableColumn<GroupDto>[] = [
    {
      key: 'name',
      header: t('basics.name'),
      render: (g) => (
        <>
          {g.name}
          <ArchivedBadge archivedAt={g.archivedAt} />
        </>
      ),
    },
    {
      key: 'displayName',
      header: t('groups.displayName'),
      render: (g) => localized(g.displayName) || t('basics.dash'),
    },
    { key: 'label', header: t('groups.label'), render: (g) => g.label || t('basics.dash') },
    { key: 'template', header: t('groups.template'), render: (g) => g.adminTemplateName ?? t('basics.dash') },
    { key: 'zones', header: t('groups.zones'), render: (g) => <NameBadges items={g.zones} /> },
  ];
  return (
    <ByActionListPage
      path="/groups"
      page="groups"
      query={{ ...groups, data: archived.visible } as typeof groups}
      headerExtra={archived.toggle}
      columns={columns}
      getActionName={groupActionName}
      unassigned="always"
      texts={{
        title: 'groups.title',
        byAction: 'groups.byAction',
        loadError: 'groups.loadListError',
        empty: 'groups.empty',
      }}
    />
  );
}
