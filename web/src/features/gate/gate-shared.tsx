import { isLanguage, LANGUAGES } from '@accredo/i18n';
import { NativeSelect } from '@mantine/core';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/client';
import { applyLanguage } from '../../app/i18n';

/** The gate's UI language (cs, sk, en, de), remembered in this browser like the rest of the app. */
export function GateLanguageSelect() {
  const { t, i18n } = useTranslation();
  return (
    <NativeSelect
      label={t('gate.language')}
      value={i18n.language}
      data={LANGUAGES.map((value) => ({ value, label: t(`lang.${value}`) }))}
      onChange={(e) => {
        const value = e.currentTarget.value;
        if (isLanguage(value)) applyLanguage(value);
      }}
    />
  );
}

/** A failed call said in the operator's language: the error code's message, else the server's text. */
export function gateErrorText(t: TFunction, error: unknown): string {
  if (isApiError(error, 'NETWORK_ERROR') || (error instanceof DOMException && error.name === 'AbortError'))
    return t('gate.unreachable.title');
  if (isApiError(error)) {
    const key = `errors.${error.code}`;
    const text = t(key);
    return text === key ? error.message : text;
  }
  return t('errors.INTERNAL_ERROR');
}
