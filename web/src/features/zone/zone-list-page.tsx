import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { type ZoneDto, zoneApi } from '../../api/zone';
import type { DataTableColumn } from '../../components/data-table';
import { ByActionListPage, NameBadges } from '../groups/setup-shared';

export const ZONES_KEY = ['admin', 'zone'] as const;

/** `/zone` (spec §2): the zones tabbed by action (zones without one under 'not assigned'). */
export function ZoneListPage() {
  const { t } = useTranslation();
  const zones = useQuery({ queryKey: ZONES_KEY, queryFn: zoneApi.list });
  const columns: DataTableColumn<ZoneDto>[] = [
    { key: 'name', header: t('basics.name'), render: (z) => z.name },
    { key: 'onAccreditation', header: t('zone.onAccreditation'), render: (z) => z.onAccreditation || t('basics.dash') },
    { key: 'groups', header: t('zone.groups'), render: (z) => <NameBadges items={z.groups} /> },
  ];
  return (
    <ByActionListPage
      path="/zone"
      page="zone"
      query={zones}
      columns={columns}
      unassigned="whenAny"
      texts={{ title: 'zone.title', byAction: 'zone.byAction', loadError: 'zone.loadListError', empty: 'zone.empty' }}
    />
  );
}
