import { EXTENSION_MEAL, EXTENSION_PARKING } from '@accredo/domain';
import { Fieldset, Stack } from '@mantine/core';
import { Controller, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { ActionTabProps } from './action-form-values';
import { BooleanField } from '../../components/form';
import { MultiTextFields } from './form-fields';
import { LogoPicker } from './logo-picker';
import { FormDateField } from '../../components/date-fields';

type BlockName = 'credit' | 'custom' | 'meal' | 'parking';

/**
 * Preview tab (spec §2, only with smartBc): what a person's preview page shows. Meal and parking
 * sections appear only for the extensions the action has.
 */
export function PreviewTab({ extensions, ...props }: ActionTabProps & { extensions: readonly number[] }) {
  const { t } = useTranslation();
  const { form, languages, fieldError } = props;
  return (
    <Stack gap="md" maw={900}>
      <MultiTextFields
        label={t('action.previewTitle')}
        description={t('action.previewTitleHint')}
        languages={languages}
        register={(language) => form.register(`previewData.title.${language}`)}
        error={(language) => fieldError(`previewData.title.${language}`)}
      />
      <Controller
        control={form.control}
        name="previewData.image"
        render={({ field }) => <LogoPicker value={field.value} onChange={field.onChange} />}
      />
      <PreviewBlock {...props} name="credit" />
      <PreviewBlock {...props} name="custom" />
      {extensions.includes(EXTENSION_MEAL) && <PreviewBlock {...props} name="meal" />}
      {extensions.includes(EXTENSION_PARKING) && <PreviewBlock {...props} name="parking" />}
    </Stack>
  );
}

/** One page of the preview: title and html only while shown (spec §2). */
function PreviewBlock({ form, languages, fieldError, name }: ActionTabProps & { name: BlockName }) {
  const { t } = useTranslation();
  const show = useWatch({ control: form.control, name: `previewData.${name}.show` });
  return (
    <Fieldset legend={t(`action.previewBlock.${name}`)}>
      <Stack gap="sm">
        <BooleanField control={form.control} name={`previewData.${name}.show`} label={t('action.previewShow')} />
        {show && (
          <>
            <MultiTextFields
              label={t('action.blockTitle')}
              languages={languages}
              requiredCs={name !== 'parking'}
              register={(language) => form.register(`previewData.${name}.title.${language}`)}
              error={(language) => fieldError(`previewData.${name}.title.${language}`)}
            />
            <MultiTextFields
              label={t('action.blockHtml')}
              languages={languages}
              textarea
              register={(language) => form.register(`previewData.${name}.html.${language}`)}
              error={(language) => fieldError(`previewData.${name}.html.${language}`)}
            />
          </>
        )}
        {(name === 'meal' || name === 'parking') && (
          <SelectionDeadline form={form} languages={languages} fieldError={fieldError} name={name} />
        )}
      </Stack>
    </Fieldset>
  );
}

/** Whether the person may change the meal or parking choice, and until when. */
function SelectionDeadline({ form, fieldError, name }: ActionTabProps & { name: 'meal' | 'parking' }) {
  const { t } = useTranslation();
  const allowSelect = useWatch({ control: form.control, name: `previewData.${name}.allowSelect` });
  return (
    <>
      <BooleanField control={form.control} name={`previewData.${name}.allowSelect`} label={t('action.allowSelect')} />
      {allowSelect && (
        <FormDateField
          kind="datetime"
          control={form.control}
          name={`previewData.${name}.selectDateTime`}
          label={t('action.selectDateTime')}
          w={260}
          error={fieldError(`previewData.${name}.selectDateTime`)}
        />
      )}
    </>
  );
}
