import { hasRight } from '@accredo/domain';
import { Anchor, Button } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { type ZoneDto, zoneApi } from '../../api/zone';
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
  useTabParam,
} from '../groups/setup-shared';

export const ZONES_KEY = ['admin', 'zone'] as const;

const zoneActionId = (z: ZoneDto) => z.actionId;

/** `/zone` (spec §2): the zones tabbed by action (zones without one under 'not assigned'). */
export function ZoneListPage() {
  const { t } = useTranslation();
  const session = useAdminSession();
  const navigate = useNavigate();
  const zones = useQuery({ queryKey: ZONES_KEY, queryFn: zoneApi.list });
  const { actions, pending, failed } = useActionOptions();
  const items = zones.data ?? [];
  const tabs = useActionTabs({ items, actions, getActionId: zoneActionId, unassigned: 'whenAny' });
  const [tab, setTab] = useTabParam(tabs.map((x) => x.value));
  const actionId = tabActionId(tab);
  const rows = items.filter((z) => z.actionId === actionId);

  const columns: DataTableColumn<ZoneDto>[] = [
    { key: 'name', header: t('basics.name'), render: (z) => z.name },
    { key: 'onAccreditation', header: t('zone.onAccreditation'), render: (z) => z.onAccreditation || t('basics.dash') },
    { key: 'groups', header: t('zone.groups'), render: (z) => <NameBadges items={z.groups} /> },
    {
      key: 'options',
      header: t('basics.options'),
      render: (z) => (
        <Anchor component={Link} to={`/zone/detail/${z.id}`} size="sm" aria-label={`${t('basics.edit')}: ${z.name}`}>
          {t('basics.edit')}
        </Anchor>
      ),
    },
  ];

  const createPath = actionId === null ? '/zone/create' : `/zone/create?actionId=${actionId}`;

  return (
    <>
      <PageHeader title={t('zone.title')}>
        {hasRight(session, 'zone', 'create') && (
          <Button component={Link} to={createPath} leftSection={<IconPlus size={16} />}>
            {t('basics.add')}
          </Button>
        )}
      </PageHeader>
      <ActionsLoadNotice failed={failed} />
      {zones.isPending || pending ? (
        <LoadingState />
      ) : tabs.length === 0 ? (
        <DataTable
          label={t('zone.title')}
          columns={columns}
          rows={[]}
          getRowId={(z) => z.id}
          error={zones.isError ? t('zone.loadListError') : undefined}
          emptyText={t('zone.empty')}
        />
      ) : (
        <ActionTabs label={t('zone.byAction')} tabs={tabs} value={tab} onChange={setTab}>
          <DataTable
            label={t('zone.title')}
            columns={columns}
            rows={rows}
            getRowId={(z) => z.id}
            error={zones.isError ? t('zone.loadListError') : undefined}
            emptyText={t('zone.empty')}
            onOpen={(z) => navigate(`/zone/detail/${z.id}`)}
          />
        </ActionTabs>
      )}
    </>
  );
}
