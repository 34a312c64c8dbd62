import { Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ActionTabProps } from './action-form-values';
import { MultiTextFields } from './form-fields';

/** Online tab (spec §2): the texts of the online registration page and of its confirmation. */
export function OnlineTab({ form, languages, fieldError }: ActionTabProps) {
  const { t } = useTranslation();
  return (
    <Stack gap="lg" maw={900}>
      <MultiTextFields
        label={t('action.textOnline')}
        description={t('action.htmlHint')}
        languages={languages}
        textarea
        register={(language) => form.register(`textOnline.${language}`)}
        error={(language) => fieldError(`textOnline.${language}`)}
      />
      <MultiTextFields
        label={t('action.textAfterAdd')}
        description={t('action.htmlHint')}
        languages={languages}
        textarea
        register={(language) => form.register(`textAfterAdd.${language}`)}
        error={(language) => fieldError(`textAfterAdd.${language}`)}
      />
    </Stack>
  );
}
