import { ActionIcon, Button, Fieldset, Group, Paper, Stack, Text, TextInput } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useFieldArray } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { type ActionTabProps, emptyText } from './action-form-values';
import { BooleanField } from '../../components/form';
import { MultiTextFields } from './form-fields';

/** Optional tab (spec §2): checking attributes (a label, an optional link, required or not). */
export function OptionalTab({ form, languages, fieldError }: ActionTabProps) {
  const { t } = useTranslation();
  const { fields, append, remove } = useFieldArray({
    control: form.control,
    name: 'checkingAttributes',
    keyName: '_key',
  });

  return (
    <Fieldset legend={t('action.checkingAttributes')} maw={900}>
      <Stack gap="sm">
        {fields.length === 0 && (
          <Text size="sm" c="dimmed">
            {t('action.noCheckingAttributes')}
          </Text>
        )}
        {fields.map((attribute, index) => {
          const label = t('action.checkingAttributeNumber', { number: index + 1 });
          return (
            <Paper key={attribute._key} withBorder p="sm" role="group" aria-label={label}>
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
              <Stack gap="sm">
                <MultiTextFields
                  label={t('action.attributeLabel')}
                  languages={languages}
                  requiredCs
                  textarea
                  register={(language) => form.register(`checkingAttributes.${index}.label.${language}`)}
                  error={(language) => fieldError(`checkingAttributes.${index}.label.${language}`)}
                />
                <TextInput
                  type="url"
                  label={t('action.attributeUrl')}
                  {...form.register(`checkingAttributes.${index}.url`)}
                  error={fieldError(`checkingAttributes.${index}.url`)}
                />
                <BooleanField
                  kind="checkbox"
                  control={form.control}
                  name={`checkingAttributes.${index}.required`}
                  label={t('action.attributeRequired')}
                />
              </Stack>
            </Paper>
          );
        })}
        <Group>
          <Button
            variant="light"
            leftSection={<IconPlus size={16} />}
            onClick={() => append({ id: null, label: emptyText(), url: '', required: false })}
          >
            {t('action.addCheckingAttribute')}
          </Button>
        </Group>
      </Stack>
    </Fieldset>
  );
}
