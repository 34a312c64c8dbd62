import {
  EXTENSION_MEAL,
  EXTENSION_PARKING,
  groupSchema,
  hasRight,
  LANGUAGES,
  type MultiText,
  withoutArchived,
} from '@accredo/domain';
import { zodResolver } from '@hookform/resolvers/zod';
import { SimpleGrid, Stack, Tabs, Textarea, TextInput } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { type Resolver, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { type GroupDto, type GroupPayload, groupsApi } from '../../api/groups';
import { templateApi } from '../../api/template';
import { zoneApi } from '../../api/zone';
import { useAdminSession } from '../../app/admin-session';
import { notifySuccess } from '../../app/notify';
import { FormShell, BooleanField, useFieldError, MultiSelectField, SelectField } from '../../components/form';
import { PageHeader } from '../../components/page-header';
import { GROUPS_KEY } from './group-list-page';
import { useActionSelectData } from './setup-shared';
import { useViewOnly } from '../../components/require-right';
import { RecordPage } from '../../components/record-page';
import { DeleteRecordButton } from '../../components/delete-record-button';
import { ArchivedNotice, ArchiveRecordButton, type ArchiveTarget } from '../../components/archive-record-button';

/** The group as the archive buttons see it (issue 15): an archived group is given to no one new. */
const archiveTarget = (g: { id: number; name: string; archivedAt?: string | null }): ArchiveTarget => ({
  page: 'groups',
  path: 'groups',
  id: g.id,
  name: g.name,
  archivedAt: g.archivedAt,
  queryKey: GROUPS_KEY,
  recordKey: [...GROUPS_KEY, g.id],
});

export interface GroupFormValues {
  name: string;
  displayName: MultiText;
  label: string;
  htmlData: string;
  adminTemplateId: string | null;
  zoneId: string[];
  actionId: string | null;
  assignDefaultMeal: boolean;
  assignDefaultParking: boolean;
}

const idOrNull = (id: number | null | undefined) => (id ? String(id) : null);

export function groupFormValues(group?: GroupDto, actionId?: number | null): GroupFormValues {
  return {
    name: group?.name ?? '',
    displayName: { cs: '', sk: '', en: '', de: '', ...group?.displayName },
    label: group?.label ?? '',
    htmlData: group?.htmlData ?? '',
    adminTemplateId: idOrNull(group?.adminTemplateId),
    zoneId: (group?.zoneId ?? []).map(String),
    actionId: idOrNull(group ? group.actionId : actionId),
    assignDefaultMeal: group?.assignDefaultMeal ?? false,
    assignDefaultParking: group?.assignDefaultParking ?? false,
  };
}

const resolver = zodResolver(groupSchema) as unknown as Resolver<GroupFormValues, unknown, GroupPayload>;

/** `/groups/create` and `/groups/detail/:id` (spec §2 Other forms: group form, one info tab). */
export function GroupDetailPage() {
  return (
    <RecordPage
      queryKey={(id) => [...GROUPS_KEY, id]}
      get={(id) => groupsApi.get(id)}
      listPath="/groups"
      errorKey="groups.loadError"
      render={(record) => <GroupForm group={record} />}
    />
  );
}

function GroupForm({ group }: { group?: GroupDto }) {
  const { t } = useTranslation();
  const viewOnly = useViewOnly('groups', Boolean(group));
  const session = useAdminSession();
  const queryClient = useQueryClient();
  const [search] = useSearchParams();
  const presetAction = Number(search.get('actionId')) || null;
  const zones = useQuery({
    queryKey: ['admin', 'zone'],
    queryFn: zoneApi.list,
    enabled: hasRight(session, 'zone', 'get'),
  });
  const templates = useQuery({
    queryKey: ['admin', 'template'],
    queryFn: templateApi.lists,
    enabled: hasRight(session, 'template', 'get'),
  });

  const form = useForm<GroupFormValues, unknown, GroupPayload>({
    resolver,
    defaultValues: groupFormValues(group, presetAction),
  });
  const fieldError = useFieldError(form.formState.errors);
  const actionId = useWatch({ control: form.control, name: 'actionId' });
  const selectedZones = useWatch({ control: form.control, name: 'zoneId' });
  const { multiLanguage, extensions } = session.subject;

  const actionData = useActionSelectData({ id: group?.actionId ?? null, name: group?.actionName });

  const templateData = useMemo(() => {
    // an archived template (issue 15) is offered only to the group that prints with it
    const data = withoutArchived(templates.data?.accreditation ?? [], [group?.adminTemplateId]).map((x) => ({
      value: String(x.id),
      label: x.name,
    }));
    if (group?.adminTemplateId && !data.some((d) => d.value === String(group.adminTemplateId)))
      data.push({
        value: String(group.adminTemplateId),
        label: group.adminTemplateName ?? `#${group.adminTemplateId}`,
      });
    return data;
  }, [templates.data, group]);

  /** Spec §3 Group: a group's zones belong to its action; only those are offered. */
  const zoneData = useMemo(() => {
    const chosen = actionId ? Number(actionId) : null;
    const all = zones.data ?? group?.zones.map((z) => ({ ...z, actionId: group.actionId })) ?? [];
    const data = all.filter((z) => z.actionId === chosen).map((z) => ({ value: String(z.id), label: z.name }));
    // Keep a zone already chosen visible even when it is not offered, so nothing disappears unseen.
    for (const value of selectedZones ?? []) {
      if (data.some((d) => d.value === value)) continue;
      const known = all.find((z) => String(z.id) === value) ?? group?.zones.find((z) => String(z.id) === value);
      data.push({ value, label: known?.name ?? `#${value}` });
    }
    return data;
  }, [zones.data, group, actionId, selectedZones]);

  const changeAction = (next: string | null) => {
    form.setValue('actionId', next, { shouldDirty: true });
    if (!zones.data) return;
    const chosen = next ? Number(next) : null;
    const keep = form
      .getValues('zoneId')
      .filter((value) => zones.data.find((z) => String(z.id) === value)?.actionId === chosen);
    form.setValue('zoneId', keep, { shouldDirty: true });
  };

  const save = async (values: GroupPayload) => {
    if (!group) {
      const created = await groupsApi.create(values);
      notifySuccess('groups.created');
      void queryClient.invalidateQueries({ queryKey: GROUPS_KEY });
      void queryClient.invalidateQueries({ queryKey: ['admin', 'zone'] });
      return { navigateTo: `/groups/detail/${created.id}` };
    }
    const saved = await groupsApi.update(group.id, values);
    notifySuccess('groups.saved');
    queryClient.setQueryData([...GROUPS_KEY, group.id], saved);
    void queryClient.invalidateQueries({ queryKey: GROUPS_KEY, exact: true });
    void queryClient.invalidateQueries({ queryKey: ['admin', 'zone'] });
    return { values: groupFormValues(saved) };
  };

  const languages = multiLanguage ? LANGUAGES : (['cs'] as const);

  return (
    <FormShell form={form} readOnly={viewOnly} onSave={save} saveErrorKey="groups.saveError">
      <PageHeader title={group ? `${t('groups.detail')}: ${group.name}` : t('groups.create')}>
        {group && <ArchiveRecordButton {...archiveTarget(group)} />}
        {group && (
          <DeleteRecordButton
            page="groups"
            name={group.name}
            remove={() => groupsApi.remove(group.id)}
            listPath="/groups"
            queryKey={GROUPS_KEY}
            recordKey={[...GROUPS_KEY, group.id]}
            archive={archiveTarget(group)}
          />
        )}
      </PageHeader>
      <ArchivedNotice archivedAt={group?.archivedAt} />
      <Tabs defaultValue="info">
        <Tabs.List mb="md">
          <Tabs.Tab value="info">{t('groups.tabInfo')}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="info">
          <Stack gap="sm" maw={720}>
            <TextInput label={t('basics.name')} required {...form.register('name')} error={fieldError('name')} />
            <SimpleGrid cols={{ base: 1, sm: multiLanguage ? 2 : 1 }} spacing="sm">
              {languages.map((lang) => (
                <TextInput
                  key={lang}
                  label={multiLanguage ? `${t('groups.displayName')} (${t(`lang.${lang}`)})` : t('groups.displayName')}
                  lang={lang}
                  {...form.register(`displayName.${lang}`)}
                  error={fieldError(`displayName.${lang}`)}
                />
              ))}
            </SimpleGrid>
            <TextInput
              label={t('groups.label')}
              description={t('groups.labelHint')}
              {...form.register('label')}
              error={fieldError('label')}
            />
            <Textarea
              label={t('groups.htmlData')}
              description={t('groups.htmlDataHint', { placeholder: '{{html_data}}' })}
              rows={3}
              resize="vertical"
              styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
              {...form.register('htmlData')}
              error={fieldError('htmlData')}
            />
            <SelectField
              control={form.control}
              name="adminTemplateId"
              label={t('groups.template')}
              placeholder={t('groups.noTemplate')}
              data={templateData}
              clearable
              searchable
              error={fieldError('adminTemplateId')}
            />
            <SelectField
              control={form.control}
              name="actionId"
              label={t('groups.action')}
              placeholder={t('groups.noAction')}
              data={actionData}
              clearable
              searchable
              onChange={changeAction}
              error={fieldError('actionId')}
            />
            <MultiSelectField
              control={form.control}
              name="zoneId"
              label={t('groups.zones')}
              description={actionId ? t('groups.zonesHint') : t('groups.zonesHintNoAction')}
              placeholder={zoneData.length === 0 ? t('groups.noZonesForAction') : undefined}
              data={zoneData}
              searchable
              clearable
              nothingFoundMessage={t('groups.noZonesForAction')}
              error={fieldError('zoneId')}
            />
            {extensions.includes(EXTENSION_MEAL) && (
              <BooleanField control={form.control} name="assignDefaultMeal" label={t('groups.assignDefaultMeal')} />
            )}
            {extensions.includes(EXTENSION_PARKING) && (
              <BooleanField
                control={form.control}
                name="assignDefaultParking"
                label={t('groups.assignDefaultParking')}
              />
            )}
          </Stack>
        </Tabs.Panel>
      </Tabs>
    </FormShell>
  );
}
