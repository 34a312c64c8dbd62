import type { DeviceTemplateDto } from '@accredo/domain';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { deviceApi } from '../../api/device';
import { zoneApi } from '../../api/zone';
import type { DataTableColumn } from '../../components/data-table';
import { ByActionListPage } from '../groups/setup-shared';
import { TEMPLATES_KEY } from './shared';

/** `/device/rules` (spec §2): the rule templates tabbed by action, like the other set-up lists. */
export function RulesListPage() {
  const { t } = useTranslation();
  const templates = useQuery({ queryKey: TEMPLATES_KEY, queryFn: () => deviceApi.templates() });
  const zones = useQuery({ queryKey: ['admin', 'zone'], queryFn: zoneApi.list });
  const zoneName = useMemo(() => new Map((zones.data ?? []).map((z) => [z.id, z.name])), [zones.data]);
  const columns: DataTableColumn<DeviceTemplateDto>[] = [
    { key: 'name', header: t('basics.name'), render: (r) => r.name },
    { key: 'mode', header: t('device.rules.mode'), render: (r) => t(`device.rules.modes.${r.data.mode}`) },
    {
      key: 'zone',
      header: t('device.rules.zone'),
      render: (r) => (r.zoneId ? (zoneName.get(r.zoneId) ?? `#${r.zoneId}`) : t('basics.dash')),
    },
    { key: 'rules', header: t('device.rules.groupRules'), render: (r) => String(r.data.rules.length) },
  ];
  return (
    <ByActionListPage
      path="/device/rules"
      page="deviceTemplate"
      query={templates}
      columns={columns}
      unassigned="whenAny"
      texts={{
        title: 'device.rules.title',
        byAction: 'device.rules.byAction',
        loadError: 'device.rules.loadListError',
        empty: 'device.rules.empty',
      }}
    />
  );
}
