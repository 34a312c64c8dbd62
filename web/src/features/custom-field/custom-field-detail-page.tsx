import { CUSTOM_FIELD_TYPES, customFieldSchema, type MultiText, OPTION_TYPES } from '@accredo/domain';
import { zodResolver } from '@hookform/resolvers/zod';
import { ActionIcon, Button, Fieldset, Group, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Controller, type Resolver, useFieldArray, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  CUSTOM_FIELD_LIST_KEY,
  type CustomFieldDto,
  type CustomFieldPayload,
  customFieldApi,
} from '../../api/custom-field';
import { notifySuccess } from '../../app/notify';
import { FormShell, useFieldError } from '../../components/form';
import { DeleteRecordButton } from '../../components/delete-record-button';
import { PageHeader } from '../../components/page-header';
import { multiText } from '../action/action-form-values';
import { HtmlPreview, MultiTextFields, useEditLanguages } from '../action/form-fields';
import { useViewOnly } from '../../components/require-right';
import { RecordPage } from '../../components/record-page';

export interface CustomFieldFormValues {
  name: string;
  label: MultiText;
  tooltip: MultiText;
  /** null until a type is chosen */
  customFieldType: number | null;
  options: { id: string | null; value: string }[];
}

export function customFieldFormValues(field?: CustomFieldDto): CustomFieldFormValues {
  return {
    name: field?.name ?? '',
    label: multiText(field?.label),
    tooltip: multiText(field?.tooltip),
    customFieldType: field?.customFieldType.id ?? null,
    options: (field?.options ?? []).map((o) => ({ id: o.id, value: o.value })),
  };
}

/** Whether a type carries options (spec §5: SELECT_MULTI and SELECT). */
export const hasOptions = (type: number | null) => type !== null && OPTION_TYPES.includes(type);

/**
 * `/custom-field/create` and `/custom-field/detail/:id` (spec §2 Other forms). A failed load goes
 * home (spec §8).
 */
export function CustomFieldDetailPage() {
  return (
    <RecordPage
      queryKey={(id) => ['admin', 'custom-field', id]}
      get={(id) => customFieldApi.get(id)}
      listPath="/"
      errorKey="customField.loadError"
      render={(record) => <CustomFieldForm field={record} />}
    />
  );
}

function CustomFieldForm({ field }: { field?: CustomFieldDto }) {
  const { t } = useTranslation();
  const viewOnly = useViewOnly('customField', Boolean(field));
  const queryClient = useQueryClient();
  const languages = useEditLanguages();
  const form = useForm<CustomFieldFormValues, unknown, CustomFieldPayload>({
    resolver: zodResolver(customFieldSchema) as unknown as Resolver<CustomFieldFormValues, unknown, CustomFieldPayload>,
    defaultValues: customFieldFormValues(field),
  });
  const fieldError = useFieldError(form.formState.errors);
  const options = useFieldArray({ control: form.control, name: 'options', keyName: '_key' });
  const [type, tooltip] = useWatch({ control: form.control, name: ['customFieldType', 'tooltip'] });
  const types = useQuery({
    queryKey: ['admin', 'custom-field-type'],
    queryFn: customFieldApi.types,
    staleTime: Infinity,
  });
  const typeData = (types.data ?? CUSTOM_FIELD_TYPES).map((c) => ({
    value: c.id,
    label: t(`customField.types.${c.code}`, { defaultValue: c.code }),
  }));

  const save = async (values: CustomFieldPayload) => {
    if (!field) {
      const created = await customFieldApi.create(values);
      notifySuccess('customField.created');
      void queryClient.invalidateQueries({ queryKey: CUSTOM_FIELD_LIST_KEY, exact: true });
      return { navigateTo: `/custom-field/detail/${created.id}` };
    }
    const saved = await customFieldApi.update(field.id, values);
    notifySuccess('customField.saved');
    queryClient.setQueryData(['admin', 'custom-field', field.id], saved);
    void queryClient.invalidateQueries({ queryKey: CUSTOM_FIELD_LIST_KEY, exact: true });
    return { values: customFieldFormValues(saved) };
  };

  const optionsError = fieldError('options') ?? fieldError('options.root');

  return (
    <FormShell form={form} readOnly={viewOnly} onSave={save} saveErrorKey="customField.saveError">
      <PageHeader title={field ? `${t('customField.detail')}: ${field.name}` : t('customField.create')}>
        {field && (
          <DeleteRecordButton
            page="customField"
            name={field.name}
            remove={() => customFieldApi.remove(field.id)}
            listPath="/custom-field"
            queryKey={CUSTOM_FIELD_LIST_KEY}
            recordKey={['admin', 'custom-field', field.id]}
          />
        )}
      </PageHeader>
      <Stack gap="md" maw={900}>
        <TextInput
          label={t('customField.name')}
          description={t('customField.nameHint')}
          required
          maw={420}
          {...form.register('name')}
          error={fieldError('name')}
        />
        <MultiTextFields
          label={t('customField.label')}
          languages={languages}
          requiredCs
          register={(language) => form.register(`label.${language}`)}
          error={(language) => fieldError(`label.${language}`)}
        />
        <Controller
          control={form.control}
          name="customFieldType"
          render={({ field: typeField }) => (
            <Select<number>
              label={t('customField.type')}
              required
              allowDeselect={false}
              maw={420}
              data={typeData}
              value={typeField.value}
              onChange={(value) => {
                typeField.onChange(value);
                // Spec §5: options belong only to the option types; others lose them.
                if (!hasOptions(value) && form.getValues('options').length > 0) options.replace([]);
              }}
              onBlur={typeField.onBlur}
              error={fieldError('customFieldType')}
            />
          )}
        />
        {hasOptions(type) && (
          <Fieldset legend={t('customField.options')}>
            <Stack gap="sm">
              {options.fields.length === 0 && (
                <Text size="sm" c="dimmed">
                  {t('customField.noOptions')}
                </Text>
              )}
              {options.fields.map((option, index) => {
                const label = t('customField.optionNumber', { number: index + 1 });
                return (
                  <Group key={option._key} align="flex-end" wrap="nowrap">
                    <TextInput
                      label={label}
                      required
                      style={{ flex: 1 }}
                      maw={420}
                      {...form.register(`options.${index}.value`)}
                      error={fieldError(`options.${index}.value`)}
                    />
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      mb={4}
                      aria-label={`${t('basics.remove')}: ${label}`}
                      onClick={() => options.remove(index)}
                    >
                      <IconTrash size={16} />
                    </ActionIcon>
                  </Group>
                );
              })}
              {optionsError && (
                <Text size="sm" c="red" role="alert">
                  {optionsError}
                </Text>
              )}
              <Group>
                <Button
                  variant="light"
                  leftSection={<IconPlus size={16} />}
                  onClick={() => options.append({ id: null, value: '' })}
                >
                  {t('customField.addOption')}
                </Button>
              </Group>
            </Stack>
          </Fieldset>
        )}
        <MultiTextFields
          label={t('customField.tooltip')}
          description={t('customField.tooltipHint')}
          languages={languages}
          textarea
          register={(language) => form.register(`tooltip.${language}`)}
          error={(language) => fieldError(`tooltip.${language}`)}
        />
        <SimpleGrid cols={{ base: 1, sm: languages.length > 1 ? 2 : 1 }}>
          {languages.map((language) => (
            <HtmlPreview
              key={language}
              label={
                languages.length > 1
                  ? `${t('customField.tooltipPreview')} (${t(`lang.${language}`)})`
                  : t('customField.tooltipPreview')
              }
              html={tooltip[language] ?? ''}
            />
          ))}
        </SimpleGrid>
      </Stack>
    </FormShell>
  );
}
