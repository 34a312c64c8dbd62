import { type DeviceDto, deviceSchema, hasRight } from '@accredo/domain';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconTrash } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { type Resolver, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { type DevicePayload, deviceApi } from '../../api/device';
import { useAdminSession } from '../../app/admin-session';
import { notifyError, notifySuccess } from '../../app/notify';
import { FormShell, SelectField, useFieldError } from '../../components/form';
import { PageHeader } from '../../components/page-header';
import { RecordPage } from '../../components/record-page';
import { DEVICES_KEY, DeviceState, useDateTime, useTemplateSelectData } from './shared';

export interface DeviceFormValues {
  name: string;
  uid: string;
  deviceTemplateId: string | null;
}

export const deviceFormValues = (d: DeviceDto): DeviceFormValues => ({
  name: d.name,
  uid: d.uid,
  deviceTemplateId: d.deviceTemplateId ? String(d.deviceTemplateId) : null,
});

const resolver = zodResolver(deviceSchema) as unknown as Resolver<DeviceFormValues, unknown, DevicePayload>;

/** `/device/detail/:id` (spec §2): name, UID and rule template of a device; delete unpairs it. */
export function DeviceDetailPage() {
  return (
    <RecordPage
      queryKey={(id) => [...DEVICES_KEY, id]}
      get={(id) => deviceApi.get(id)}
      listPath="/device"
      notFoundPath="/device"
      errorKey="device.loadError"
      render={(record) => (record ? <DeviceForm device={record} /> : null)}
    />
  );
}

function DeviceForm({ device }: { device: DeviceDto }) {
  const { t } = useTranslation();
  const session = useAdminSession();
  const readOnly = !hasRight(session, 'device', 'updateDevice');
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const dateTime = useDateTime();
  const templates = useTemplateSelectData(hasRight(session, 'deviceTemplate', 'get'));
  const form = useForm<DeviceFormValues, unknown, DevicePayload>({ resolver, defaultValues: deviceFormValues(device) });
  const fieldError = useFieldError(form.formState.errors);
  // the device's own template, should the template list be out of reach (no deviceTemplate right)
  const templateData =
    device.deviceTemplate &&
    !templates.data.some((g) => g.items.some((i) => i.value === String(device.deviceTemplateId)))
      ? [
          ...templates.data,
          { group: '', items: [{ value: String(device.deviceTemplate.id), label: device.deviceTemplate.name }] },
        ]
      : templates.data;

  const save = async (values: DevicePayload) => {
    const saved = await deviceApi.update(device.id, values);
    notifySuccess('device.saved');
    queryClient.setQueryData([...DEVICES_KEY, device.id], saved);
    void queryClient.invalidateQueries({ queryKey: DEVICES_KEY, exact: true });
    return { values: deviceFormValues(saved) };
  };

  const remove = () =>
    modals.openConfirmModal({
      title: t('device.deleteTitle'),
      children: <Text size="sm">{t('device.deleteText', { name: device.name || device.uid })}</Text>,
      labels: { confirm: t('device.delete'), cancel: t('basics.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: async () => {
        try {
          await deviceApi.remove(device.id);
          notifySuccess('device.deleted');
          queryClient.removeQueries({ queryKey: [...DEVICES_KEY, device.id] });
          void queryClient.invalidateQueries({ queryKey: DEVICES_KEY, exact: true });
          navigate('/device');
        } catch {
          notifyError('device.deleteError');
        }
      },
    });

  return (
    <FormShell
      form={form}
      readOnly={readOnly}
      onSave={save}
      saveErrorKey="device.saveError"
      onError={(error) => {
        if ((error as { code?: string })?.code !== 'DEVICE_UID_EXIST') return false;
        form.setError('uid', { type: 'server', message: 'device.uidExists' });
        return true;
      }}
    >
      <PageHeader title={`${t('device.detail')}: ${device.name || device.uid}`}>
        {!readOnly && (
          <Button color="red" variant="light" leftSection={<IconTrash size={16} />} onClick={remove}>
            {t('device.delete')}
          </Button>
        )}
      </PageHeader>
      <Stack gap="sm" w={520} maw="100%">
        <TextInput label={t('basics.name')} {...form.register('name')} error={fieldError('name')} />
        <TextInput label={t('device.uid')} required {...form.register('uid')} error={fieldError('uid')} />
        <SelectField
          control={form.control}
          name="deviceTemplateId"
          label={t('device.template')}
          description={t('device.templateHint')}
          placeholder={t('device.noTemplate')}
          data={templateData}
          clearable
          searchable
          error={fieldError('deviceTemplateId')}
        />
        <Group gap="xl" mt="sm">
          <div>
            <Text size="xs" c="dimmed">
              {t('device.state')}
            </Text>
            <DeviceState online={device.online} paired={device.paired} />
          </div>
          <div>
            <Text size="xs" c="dimmed">
              {t('device.lastSeen')}
            </Text>
            <Text size="sm">{dateTime(device.lastSeenAt)}</Text>
          </div>
          <div>
            <Text size="xs" c="dimmed">
              {t('device.pairedAt')}
            </Text>
            <Text size="sm">{dateTime(device.pairedAt)}</Text>
          </div>
          <div>
            <Text size="xs" c="dimmed">
              {t('device.appVersion')}
            </Text>
            <Text size="sm">{device.appVersion || t('basics.dash')}</Text>
          </div>
        </Group>
      </Stack>
    </FormShell>
  );
}
