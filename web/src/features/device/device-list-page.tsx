import type { DeviceDto } from '@accredo/domain';
import { Group } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { deviceApi } from '../../api/device';
import { DataTable, type DataTableColumn } from '../../components/data-table';
import { EditLink } from '../../components/edit-link';
import { PageHeader } from '../../components/page-header';
import { DEVICES_KEY, DeviceState, useActionName, useDateTime } from './shared';

/** `/device` (spec §2): the paired devices with their template, last contact and state. */
export function DeviceListPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const devices = useQuery({ queryKey: DEVICES_KEY, queryFn: deviceApi.list, refetchInterval: 30_000 });
  const actionName = useActionName();
  const dateTime = useDateTime();
  const columns: DataTableColumn<DeviceDto>[] = [
    { key: 'name', header: t('basics.name'), render: (d) => d.name || t('basics.dash') },
    { key: 'uid', header: t('device.uid'), render: (d) => d.uid },
    {
      key: 'template',
      header: t('device.template'),
      render: (d) =>
        d.deviceTemplate
          ? `${d.deviceTemplate.name} (${actionName(d.deviceTemplate.actionId)})`
          : t('device.noTemplate'),
    },
    { key: 'lastSeen', header: t('device.lastSeen'), render: (d) => dateTime(d.lastSeenAt) },
    { key: 'state', header: t('device.state'), render: (d) => <DeviceState online={d.online} paired={d.paired} /> },
    { key: 'appVersion', header: t('device.appVersion'), render: (d) => d.appVersion || t('basics.dash') },
    {
      key: 'options',
      header: t('basics.options'),
      render: (d) => (
        <Group gap="xs" wrap="nowrap">
          <EditLink to={`/device/detail/${d.id}`} name={d.name || d.uid} />
        </Group>
      ),
    },
  ];
  return (
    <>
      <PageHeader title={t('device.title')} />
      <DataTable
        label={t('device.title')}
        columns={columns}
        rows={devices.data}
        loading={devices.isPending}
        getRowId={(d) => d.id}
        error={devices.isError ? t('device.loadListError') : undefined}
        emptyText={t('device.empty')}
        onOpen={(d) => navigate(`/device/detail/${d.id}`)}
      />
    </>
  );
}
