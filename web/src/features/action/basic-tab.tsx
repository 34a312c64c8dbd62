import { CUSTOM_FIELD_TYPES } from '@accredo/domain';
import { ActionIcon, Badge, Fieldset, Group, Paper, Select, Stack, Text, TextInput } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Controller, useFieldArray, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { actionApi, localized } from '../../api/action';
import { CUSTOM_FIELD_LIST_KEY, customFieldApi } from '../../api/custom-field';
import type { ActionTabProps } from './action-form-values';
import { BooleanField } from '../../components/form';
import { MultiTextFields } from './form-fields';

/** The user-field type's name, e.g. 'Text' for type 1. */
export function useFieldTypeName() {
  const { t } = useTranslation();
  return (typeId: number) => {
    const code = CUSTOM_FIELD_TYPES.find((c) => c.id === typeId)?.code;
    return code ? t(`customField.types.${code}`) : t('basics.dash');
  };
}

/** Basic tab (spec §2 Action form tabs): name, mail after add, switches and selected user fields. */
export function BasicTab({ form, languages, fieldError }: ActionTabProps) {
  const { t } = useTranslation();
  const mailTemplates = useQuery({ queryKey: ['admin', 'mail-template'], queryFn: actionApi.mailTemplates });
  const withPhoto = useWatch({ control: form.control, name: 'withPhoto' });

  return (
    <Stack gap="md" maw={900}>
      <MultiTextFields
        label={t('action.name')}
        languages={languages}
        requiredCs
        register={(language) => form.register(`name.${language}`)}
        error={(language) => fieldError(`name.${language}`)}
      />
      <Controller
        control={form.control}
        name="afterMailTemplateId"
        render={({ field }) => {
          // Mails after registration are type 1; a template chosen earlier stays listed.
          const data = (mailTemplates.data ?? [])
            .filter((m) => m.type === 1 || m.id === field.value)
            .map((m) => ({ value: m.id, label: m.name }));
          return (
            <Select<number>
              label={t('action.afterMailTemplate')}
              description={mailTemplates.isError ? t('action.mailTemplatesError') : undefined}
              placeholder={t('action.noMailTemplate')}
              clearable
              data={data}
              value={field.value}
              onChange={(value) => field.onChange(value ?? null)}
              onBlur={field.onBlur}
              error={fieldError('afterMailTemplateId')}
              maw={420}
            />
          );
        }}
      />
      <Group gap="xl">
        <BooleanField control={form.control} name="isCredit" label={t('action.isCredit')} />
        <BooleanField
          control={form.control}
          name="withPhoto"
          label={t('action.withPhoto')}
          onValueChange={(checked) => {
            if (!checked) form.setValue('requirePhoto', false, { shouldDirty: true });
          }}
        />
        <BooleanField
          control={form.control}
          name="requirePhoto"
          label={t('action.requirePhoto')}
          disabled={!withPhoto}
        />
        <BooleanField
          control={form.control}
          name="smartBc"
          label={t('action.smartBc')}
          description={t('action.smartBcHint')}
        />
      </Group>
      <SelectedUserFields form={form} languages={languages} fieldError={fieldError} />
    </Stack>
  );
}

/** The action's user fields: each with mandatory, hidden-on-web and, when hidden, a default value. */
function SelectedUserFields({ form, fieldError }: ActionTabProps) {
  const { t, i18n } = useTranslation();
  const typeName = useFieldTypeName();
  const { fields, append, remove } = useFieldArray({ control: form.control, name: 'customField', keyName: '_key' });
  const selected = useWatch({ control: form.control, name: 'customField' });
  const customFields = useQuery({ queryKey: CUSTOM_FIELD_LIST_KEY, queryFn: customFieldApi.list });
  const [search, setSearch] = useState('');
  const available = (customFields.data ?? []).filter((f) => !selected.some((s) => s.id === f.id));
  /** What people read (the label in the UI language), with the internal name where it differs. */
  const title = (id: number, name: string) => {
    const field = customFields.data?.find((f) => f.id === id);
    const label = field ? localized(field.label, i18n.language) : '';
    return label && label !== name ? `${label} (${name})` : name;
  };

  return (
    <Fieldset legend={t('action.userFields')}>
      <Stack gap="sm">
        {fields.length === 0 && (
          <Text size="sm" c="dimmed">
            {t('action.noUserFields')}
          </Text>
        )}
        {fields.map((field, index) => (
          <Paper key={field._key} withBorder p="sm" role="group" aria-label={title(field.id, field.name)}>
            <Group justify="space-between" wrap="nowrap" mb="xs">
              <Group gap="xs">
                <Text fw={500}>{title(field.id, field.name)}</Text>
                <Badge variant="light" color="gray">
                  {typeName(field.customFieldType)}
                </Badge>
              </Group>
              <ActionIcon
                variant="subtle"
                color="red"
                aria-label={`${t('basics.remove')}: ${title(field.id, field.name)}`}
                onClick={() => remove(index)}
              >
                <IconTrash size={16} />
              </ActionIcon>
            </Group>
            <Group gap="xl">
              <BooleanField
                kind="checkbox"
                control={form.control}
                name={`customField.${index}.isMandatory`}
                label={t('action.fieldMandatory')}
              />
              <BooleanField
                kind="checkbox"
                control={form.control}
                name={`customField.${index}.notShow`}
                label={t('action.fieldHidden')}
                description={t('action.fieldHiddenHint')}
              />
            </Group>
            {selected[index]?.notShow && (
              <TextInput
                mt="xs"
                maw={420}
                label={t('action.fieldDefaultValue')}
                {...form.register(`customField.${index}.defaultValue`)}
                error={fieldError(`customField.${index}.defaultValue`)}
              />
            )}
          </Paper>
        ))}
        <Select<number>
          label={t('action.addUserField')}
          placeholder={customFields.isError ? t('action.userFieldsError') : t('action.chooseUserField')}
          searchable
          maw={420}
          disabled={available.length === 0}
          nothingFoundMessage={t('basics.noData')}
          data={available.map((f) => ({ value: f.id, label: title(f.id, f.name) }))}
          value={null}
          searchValue={search}
          onSearchChange={setSearch}
          onChange={(value) => {
            const picked = available.find((f) => f.id === value);
            setSearch('');
            if (!picked) return;
            append({
              id: picked.id,
              name: picked.name,
              customFieldType: picked.customFieldType.id,
              isMandatory: false,
              notShow: false,
              defaultValue: '',
            });
          }}
          error={fieldError('customField')}
        />
      </Stack>
    </Fieldset>
  );
}
