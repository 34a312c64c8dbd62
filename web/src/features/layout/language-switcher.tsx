import { isLanguage, LANGUAGE_NAMES, type Language, LANGUAGES } from '@accredo/i18n';
import { Select } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { applyLanguage } from '../../app/i18n';

/**
 * The language Select (spec §1): offered only where multi-language applies. `languages` narrows
 * the choice (an online channel offers its own languages).
 */
export function LanguageSwitcher({ languages = LANGUAGES }: { languages?: readonly Language[] }) {
  const { t, i18n } = useTranslation();
  return (
    <Select
      label={t('basics.language')}
      size="xs"
      w={130}
      allowDeselect={false}
      // Each language in its own name, so a reader finds theirs whatever is shown now (a constant: the
      // other languages' catalogues are not loaded until chosen).
      data={languages.map((lang) => ({ value: lang, label: LANGUAGE_NAMES[lang] }))}
      value={i18n.language}
      onChange={(value) => {
        if (isLanguage(value)) applyLanguage(value);
      }}
    />
  );
}
