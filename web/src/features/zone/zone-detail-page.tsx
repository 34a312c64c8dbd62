import { zoneSchema } from '@accredo/domain';
import { zodResolver } from '@hookform/resolvers/zod';
import { Anchor, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { type Resolver, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { type ZoneDto, type ZonePayload, zoneApi } from '../../api/zone';
import { notifySuccess } from '../../app/notify';
import { FormShell, useFieldError, SelectField } from '../../components/form';
import { PageHeader } from '../../components/page-header';
import { DeleteRecordButton } from '../../components/delete-record-button';
import { useActionSelectData } from '../groups/setup-shared';
import { ZONES_KEY } from './zone-list-page';
import { useViewOnly } from '../../components/require-right';
import { RecordPage } from '../../components/record-page';

export interface ZoneFormValues {
  name: string;
  onAccreditation: string;
  actionId: string | null;
}

export const zoneFormValues = (zone?: ZoneDto, actionId?: number | null): ZoneFormValues => {
  const action = zone ? zone.actionId : actionId;
  return {
    name: zone?.name ?? '',
    onAccreditation: zone?.onAccreditation ?? '',
    actionId: action ? String(action) : null,
  };
};

const resolver = zodResolver(zoneSchema) as unknown as Resolver<ZoneFormValues, unknown, ZonePayload>;

/** `/zone/create` and `/zone/detail/:id` (spec §3 Zone: name, name on the badge, action; its groups). */
export function ZoneDetailPage() {
  return (
    <RecordPage
      queryKey={(id) => [...ZONES_KEY, id]}
      get={(id) => zoneApi.get(id)}
      listPath="/zone"
      errorKey="zone.loadError"
      render={(record) => <ZoneForm zone={record} />}
    />
  );
}

function ZoneForm({ zone }: { zone?: ZoneDto }) {
  const { t } = useTranslation();
  const viewOnly = useViewOnly('zone', Boolean(zone));
  const queryClient = useQueryClient();
  const [search] = useSearchParams();
  const actionData = useActionSelectData({ id: zone?.actionId ?? null });
  const form = useForm<ZoneFormValues, unknown, ZonePayload>({
    resolver,
    defaultValues: zoneFormValues(zone, Number(search.get('actionId')) || null),
  });
  const fieldError = useFieldError(form.formState.errors);

  const save = async (values: ZonePayload) => {
    if (!zone) {
      const created = await zoneApi.create(values);
      notifySuccess('zone.created');
      void queryClient.invalidateQueries({ queryKey: ZONES_KEY });
      return { navigateTo: `/zone/detail/${created.id}` };
    }
    const saved = await zoneApi.update(zone.id, values);
    notifySuccess('zone.saved');
    queryClient.setQueryData([...ZONES_KEY, zone.id], saved);
    void queryClient.invalidateQueries({ queryKey: ZONES_KEY, exact: true });
    void queryClient.invalidateQueries({ queryKey: ['admin', 'groups'] });
    return { values: zoneFormValues(saved) };
  };

  return (
    <FormShell form={form} readOnly={viewOnly} onSave={save} saveErrorKey="zone.saveError">
      <PageHeader title={zone ? `${t('zone.detail')}: ${zone.name}` : t('zone.create')}>
        {zone && (
          <DeleteRecordButton
            page="zone"
            name={zone.name}
            remove={() => zoneApi.remove(zone.id)}
            listPath="/zone"
            queryKey={ZONES_KEY}
            recordKey={[...ZONES_KEY, zone.id]}
          />
        )}
      </PageHeader>
      <Group align="flex-start" gap="xl" wrap="wrap">
        <Stack gap="sm" w={520} maw="100%">
          <TextInput label={t('basics.name')} required {...form.register('name')} error={fieldError('name')} />
          <TextInput
            label={t('zone.onAccreditation')}
            description={t('zone.onAccreditationHint')}
            {...form.register('onAccreditation')}
            error={fieldError('onAccreditation')}
          />
          <SelectField
            control={form.control}
            name="actionId"
            label={t('zone.action')}
            placeholder={t('groups.noAction')}
            data={actionData}
            clearable
            searchable
            error={fieldError('actionId')}
          />
        </Stack>
        {zone && (
          <Paper withBorder p="md" w={320} maw="100%" component="section" aria-labelledby="zone-groups-title">
            <Title order={2} size="h5" mb="xs" id="zone-groups-title">
              {t('zone.groups')}
            </Title>
            {zone.groups.length === 0 ? (
              <Text size="sm" c="dimmed">
                {t('zone.noGroups')}
              </Text>
            ) : (
              <Stack gap={4} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
                {zone.groups.map((g) => (
                  <li key={g.id}>
                    <Anchor component={Link} to={`/groups/detail/${g.id}`} size="sm">
                      {g.name}
                    </Anchor>
                  </li>
                ))}
              </Stack>
            )}
          </Paper>
        )}
      </Group>
    </FormShell>
  );
}
