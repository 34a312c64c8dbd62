import { EXTENSION_MEAL, EXTENSION_PARKING, hasRight, withoutArchived } from '@accredo/domain';
import { Alert, Checkbox, Fieldset, Group, Radio, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Controller, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { actionApi, localized } from '../../api/action';
import { groupsApi } from '../../api/groups';
import { mailTemplateApi } from '../../api/template';
import { useAdminSession } from '../../app/admin-session';
import { formatDay } from '../action/date-tab';
import { MultiTextFields } from '../action/form-fields';
import { BooleanField } from '../../components/form';
import { useActionOptions } from '../groups/setup-shared';
import type { ChannelTabProps } from './web-channel-detail-page';
import { MultiSelectField, SelectField } from '../../components/form';
import { FormDateField } from '../../components/date-fields';

/** The action a channel registers into, with its days, user fields and extensions (GET action/{id}). */
export function useChannelAction(actionId: string | null) {
  const session = useAdminSession();
  const id = Number(actionId);
  return useQuery({
    queryKey: ['admin', 'action', id],
    queryFn: () => actionApi.get(id),
    enabled: id > 0 && hasRight(session, 'action', 'get'),
  });
}

/**
 * Info tab (spec §2, §3 Web channel): name, action, active, open from/to, groups offered or
 * assigned, days offered or assigned, meal and parking choices, the person's field labels, what
 * follows a registration, the confirmation mail and the user fields shown.
 */
export function InfoTab({ form, fieldError, languages, channel }: ChannelTabProps) {
  const { t, i18n } = useTranslation();
  const session = useAdminSession();
  const language = i18n.language;
  const { actions } = useActionOptions();
  const [actionId, viewGroups, viewDays] = useWatch({
    control: form.control,
    name: ['actionId', 'viewGroups', 'viewDays'],
  });
  const action = useChannelAction(actionId);
  const groups = useQuery({
    queryKey: ['admin', 'groups'],
    queryFn: groupsApi.list,
    enabled: hasRight(session, 'groups', 'get'),
  });
  const mailTemplates = useQuery({
    queryKey: ['admin', 'mail-template'],
    queryFn: mailTemplateApi.list,
    enabled: hasRight(session, 'mailTemplate', 'get'),
  });

  const actionData = useMemo(() => {
    // archived actions (issue 15) are offered only to the channel that has one
    const data = withoutArchived(actions, [channel?.actionId]).map((a) => ({
      value: String(a.id),
      label: localized(a.name, language) || `#${a.id}`,
    }));
    if (channel && !data.some((d) => d.value === String(channel.actionId)))
      data.push({ value: String(channel.actionId), label: `#${channel.actionId}` });
    return data;
  }, [actions, channel, language]);

  // archived groups (issue 15) are offered only where the channel has them already
  const groupData = withoutArchived(
    (groups.data ?? []).filter((g) => String(g.actionId) === actionId),
    channel?.groupsId ?? [],
  ).map((g) => ({ value: String(g.id), label: g.name }));
  // Spec §3 Mail template: type 1 is the mail after a registration.
  const mailData = (mailTemplates.data ?? [])
    .filter((m) => m.type === 1)
    .map((m) => ({ value: String(m.id), label: m.name }));
  const fieldData = (action.data?.customField ?? [])
    .filter((f) => !f.notShow)
    .map((f) => ({ value: String(f.id), label: f.name }));
  const days = action.data?.multiDay ? (action.data.days ?? []) : [];
  const { extensions } = session.subject;

  /** The groups, days and user fields belong to the action: a new action starts without them. */
  const changeAction = (next: string | null) => {
    form.setValue('actionId', next, { shouldDirty: true, shouldValidate: form.formState.isSubmitted });
    for (const name of ['groupsId', 'defaultDays', 'customField'] as const)
      form.setValue(name, [], { shouldDirty: true });
  };

  const multiSelect = (
    name: 'groupsId' | 'customField',
    label: string,
    data: { value: string; label: string }[],
    description?: string,
  ) => (
    <MultiSelectField
      control={form.control}
      name={name}
      label={label}
      description={description}
      data={data}
      searchable
      clearable
      error={fieldError(name)}
    />
  );

  return (
    <Stack gap="md" maw={900}>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput label={t('basics.name')} required {...form.register('name')} error={fieldError('name')} />
        <SelectField
          control={form.control}
          name="actionId"
          label={t('webChannel.action')}
          required
          data={actionData}
          searchable
          onChange={changeAction}
          error={fieldError('actionId')}
        />
      </SimpleGrid>
      <BooleanField control={form.control} name="active" label={t('webChannel.active')} />
      <Group align="flex-start">
        <FormDateField
          kind="datetime"
          control={form.control}
          name="dateFrom"
          deps={['dateTo']}
          label={t('webChannel.dateFrom')}
          description={t('webChannel.dateHint')}
          w={260}
          error={fieldError('dateFrom')}
        />
        <FormDateField
          kind="datetime"
          control={form.control}
          name="dateTo"
          deps={['dateFrom']}
          label={t('webChannel.dateTo')}
          description={t('webChannel.dateHint')}
          w={260}
          error={fieldError('dateTo')}
        />
      </Group>
      {actionId && action.isError && <Alert color="yellow">{t('webChannel.actionLoadError')}</Alert>}

      <Fieldset legend={t('webChannel.groups')}>
        <Stack gap="sm">
          <BooleanField control={form.control} name="viewGroups" label={t('webChannel.viewGroups')} />
          {viewGroups ? (
            <>
              <MultiTextFields
                label={t('webChannel.groupsSelectName')}
                languages={languages}
                register={(lang) => form.register(`groupsSelectName.${lang}`)}
                error={(lang) => fieldError(`groupsSelectName.${lang}`)}
              />
              {multiSelect('groupsId', t('webChannel.groupsOffered'), groupData, t('webChannel.groupsOfferedHint'))}
            </>
          ) : (
            multiSelect('groupsId', t('webChannel.groupsAutomatic'), groupData, t('webChannel.groupsAutomaticHint'))
          )}
        </Stack>
      </Fieldset>

      <Fieldset legend={t('webChannel.days')}>
        {days.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('webChannel.noDays')}
          </Text>
        ) : (
          <Stack gap="sm">
            <BooleanField control={form.control} name="viewDays" label={t('webChannel.viewDays')} />
            {viewDays && (
              <MultiTextFields
                label={t('webChannel.daysSelectName')}
                languages={languages}
                register={(lang) => form.register(`daysSelectName.${lang}`)}
                error={(lang) => fieldError(`daysSelectName.${lang}`)}
              />
            )}
            <Controller
              control={form.control}
              name="defaultDays"
              render={({ field }) => (
                <Checkbox.Group
                  label={viewDays ? t('webChannel.daysPreselected') : t('webChannel.daysAutomatic')}
                  value={field.value}
                  onChange={field.onChange}
                  error={fieldError('defaultDays')}
                >
                  <Group gap="md" mt={4}>
                    {days.map((day) => (
                      <Checkbox
                        key={day.id}
                        value={day.id}
                        label={localized(day.name, language) || formatDay(day.id, language)}
                      />
                    ))}
                  </Group>
                </Checkbox.Group>
              )}
            />
          </Stack>
        )}
      </Fieldset>

      {(extensions.includes(EXTENSION_MEAL) || extensions.includes(EXTENSION_PARKING)) && (
        <Fieldset legend={t('webChannel.extensions')}>
          <Stack gap="sm">
            {extensions.includes(EXTENSION_MEAL) && (
              <BooleanField
                control={form.control}
                name="viewMealSelect"
                label={t('webChannel.viewMealSelect')}
                description={
                  action.data && !action.data.extension.includes(EXTENSION_MEAL)
                    ? t('webChannel.actionWithoutMeal')
                    : undefined
                }
              />
            )}
            {extensions.includes(EXTENSION_PARKING) && (
              <BooleanField
                control={form.control}
                name="viewParkingSelect"
                label={t('webChannel.viewParkingSelect')}
                description={
                  action.data && !action.data.extension.includes(EXTENSION_PARKING)
                    ? t('webChannel.actionWithoutParking')
                    : undefined
                }
              />
            )}
          </Stack>
        </Fieldset>
      )}

      <Fieldset legend={t('webChannel.customNames')}>
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            {t('webChannel.customNamesHint')}
          </Text>
          {(
            [
              ['customNameFirstname', 'webChannel.customNameFirstname'],
              ['customNameLastname', 'webChannel.customNameLastname'],
              ['customNameEmail', 'webChannel.customNameEmail'],
            ] as const
          ).map(([name, label]) => (
            <MultiTextFields
              key={name}
              label={t(label)}
              languages={languages}
              register={(lang) => form.register(`${name}.${lang}`)}
              error={(lang) => fieldError(`${name}.${lang}`)}
            />
          ))}
        </Stack>
      </Fieldset>

      <Controller
        control={form.control}
        name="afterAdd.action"
        render={({ field }) => (
          <Radio.Group
            label={t('webChannel.afterAdd')}
            value={String(field.value)}
            onChange={(value) => field.onChange(Number(value) as 1 | 2)}
            error={fieldError('afterAdd.action')}
          >
            <Group mt={6}>
              <Radio value="1" label={t('webChannel.afterAddNext')} />
              <Radio value="2" label={t('webChannel.afterAddNothing')} />
            </Group>
          </Radio.Group>
        )}
      />
      <SelectField
        control={form.control}
        name="mailTemplateId"
        label={t('webChannel.mailTemplate')}
        description={t('webChannel.mailTemplateHint')}
        placeholder={t('webChannel.noMailTemplate')}
        data={mailData}
        clearable
        searchable
        error={fieldError('mailTemplateId')}
        maw={440}
      />
      {multiSelect('customField', t('webChannel.customField'), fieldData, t('webChannel.customFieldHint'))}
    </Stack>
  );
}
