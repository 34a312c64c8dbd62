import { daysInRange, regenerateDays } from '@accredo/domain';
import { ActionIcon, Alert, Fieldset, Group, Paper, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useFieldArray, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { type ActionTabProps, withDay } from './action-form-values';
import { BooleanField } from '../../components/form';
import { MultiTextFields } from './form-fields';
import { formatDay } from './format-day';
import { FormDateField } from '../../components/date-fields';

export { formatDay };

/**
 * Date tab (spec §2, §4 Multi-day): the range, the multi-day switch and the days. The days follow
 * the range: days outside a new range are removed, and a day of the range not in the list can be
 * added back.
 */
export function DateTab({ form, languages, fieldError }: ActionTabProps) {
  const { t, i18n } = useTranslation();
  const { fields, replace, remove } = useFieldArray({ control: form.control, name: 'days', keyName: '_key' });
  const [dateFrom, dateTo, multiDay, days] = useWatch({
    control: form.control,
    name: ['dateFrom', 'dateTo', 'multiDay', 'days'],
  });

  /** Applies a changed range or the switch turned on; a range being typed (incomplete) changes nothing. */
  const regenerate = () => {
    const values = form.getValues();
    if (!values.multiDay || daysInRange(values.dateFrom, values.dateTo).length === 0) return;
    const next = regenerateDays(values.days, values.dateFrom, values.dateTo);
    const same = next.length === values.days.length && next.every((d, i) => d.id === values.days[i].id);
    if (!same) replace(next);
  };

  // the list's own error (no day at all): at `days.root` from the form's schema, at `days` from the server
  const daysError = fieldError('days.root') ?? fieldError('days');
  const range = daysInRange(dateFrom, dateTo);
  const remaining = range.filter((id) => !days.some((d) => d.id === id));

  return (
    <Stack gap="md" maw={900}>
      <Group align="flex-start">
        <FormDateField
          kind="datetime"
          control={form.control}
          name="dateFrom"
          onValueChange={regenerate}
          label={t('action.dateFrom')}
          error={fieldError('dateFrom')}
          w={260}
        />
        <FormDateField
          kind="datetime"
          control={form.control}
          name="dateTo"
          onValueChange={regenerate}
          label={t('action.dateTo')}
          error={fieldError('dateTo')}
          w={260}
        />
      </Group>
      <BooleanField
        control={form.control}
        name="multiDay"
        label={t('action.multiDay')}
        error={fieldError('multiDay')}
        onValueChange={(checked) => {
          if (checked) regenerate();
        }}
      />
      {multiDay && (
        <Fieldset legend={t('action.days')}>
          <Stack gap="sm">
            {range.length === 0 && <Alert color="blue">{t('action.daysNeedRange')}</Alert>}
            {range.length > 0 && fields.length === 0 && (
              <Text size="sm" c="dimmed">
                {t('action.noDays')}
              </Text>
            )}
            {daysError && (
              <Text size="sm" c="red" role="alert">
                {daysError}
              </Text>
            )}
            {fields.map((day, index) => {
              const label = formatDay(day.id, i18n.language);
              const idError = fieldError(`days.${index}.id`);
              return (
                <Paper key={day._key} withBorder p="sm" role="group" aria-label={label}>
                  <Group justify="space-between" mb="xs" wrap="nowrap">
                    <Text fw={500}>{label}</Text>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={`${t('basics.remove')}: ${label}`}
                      onClick={() => remove(index)}
                    >
                      <IconTrash size={16} />
                    </ActionIcon>
                  </Group>
                  {idError && (
                    <Text size="sm" c="red" role="alert" mb="xs">
                      {idError}
                    </Text>
                  )}
                  <SimpleGrid cols={{ base: 1, sm: languages.length > 1 ? 1 : 2 }}>
                    <MultiTextFields
                      label={t('action.dayName')}
                      languages={languages}
                      requiredCs
                      register={(language) => form.register(`days.${index}.name.${language}`)}
                      error={(language) => fieldError(`days.${index}.name.${language}`)}
                    />
                    <TextInput
                      label={t('action.dayOnAccreditation')}
                      required
                      maw={languages.length > 1 ? 420 : undefined}
                      {...form.register(`days.${index}.onAccreditation`)}
                      error={fieldError(`days.${index}.onAccreditation`)}
                    />
                  </SimpleGrid>
                </Paper>
              );
            })}
            {remaining.length > 0 && (
              <Select
                label={t('action.addDay')}
                placeholder={t('action.chooseDay')}
                maw={320}
                data={remaining.map((id) => ({ value: id, label: formatDay(id, i18n.language) }))}
                value={null}
                onChange={(id) => {
                  if (id) replace(withDay(form.getValues('days'), id));
                }}
              />
            )}
          </Stack>
        </Fieldset>
      )}
    </Stack>
  );
}
