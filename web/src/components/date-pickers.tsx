import '@mantine/dates/styles.css';
import 'dayjs/locale/cs';
import 'dayjs/locale/de';
import 'dayjs/locale/sk';
import { TextInput } from '@mantine/core';
import { DateInput, DatesProvider } from '@mantine/dates';
import dayjs from 'dayjs';
import customParseFormat from 'dayjs/plugin/customParseFormat';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DateFieldProps } from './date-fields';

// Mantine's date input in the UI language (issue 15), a chunk of its own (see date-fields.tsx).
dayjs.extend(customParseFormat);

/** The shown day by UI language, as Intl shows it there ('10. 7. 2026', '10.07.2026', 'Jul 10, 2026'). */
const DAY_FORMATS: Record<string, string> = { cs: 'D. M. YYYY', sk: 'D. M. YYYY', de: 'DD.MM.YYYY', en: 'MMM D, YYYY' };
/** What typing is read as besides the shown form: the numeric day forms of the four languages and ISO. */
const DAY_INPUTS = ['D. M. YYYY', 'D.M.YYYY', 'DD.MM.YYYY', 'D/M/YYYY', 'YYYY-MM-DD'];
const TIME = 'HH:mm';
const TIME_INPUTS = ['H:mm', 'HH:mm'];

function useLanguage(): string {
  const { i18n } = useTranslation();
  return i18n.language in DAY_FORMATS ? i18n.language : 'cs';
}

function Localized({ children }: { children: ReactNode }) {
  const language = useLanguage();
  return (
    <DatesProvider settings={{ locale: language, firstDayOfWeek: language === 'en' ? 0 : 1 }}>{children}</DatesProvider>
  );
}

/** A strict reader of typed text in any of `formats` (a half-typed date is nothing yet). */
function parser(language: string, formats: string[], withTime: boolean) {
  return (text: string) => {
    const value = text.trim().replace('T', ' ');
    for (const format of formats) {
      const day = dayjs(value, format, language, true);
      if (day.isValid()) return day.format(withTime ? 'YYYY-MM-DD HH:mm:ss' : 'YYYY-MM-DD');
    }
    return null;
  };
}

/** `YYYY-MM-DDTHH:mm` (the API's form, as the native input held it) ⇄ Mantine's `YYYY-MM-DD HH:mm:ss`. */
export const toPickerDateTime = (value: string) => (value ? `${value.slice(0, 16).replace('T', ' ')}:00` : null);
export const fromPickerDateTime = (value: string | null) => (value ? value.slice(0, 16).replace(' ', 'T') : '');

export function DatePickerField({ value, onChange, ...props }: DateFieldProps) {
  const language = useLanguage();
  const shown = DAY_FORMATS[language];
  return (
    <Localized>
      <DateInput
        {...props}
        valueFormat={shown}
        dateParser={parser(language, [shown, ...DAY_INPUTS], false)}
        value={value || null}
        onChange={(next) => onChange(next ?? '')}
        clearable={!props.required}
      />
    </Localized>
  );
}

export function DateTimePickerField({ value, onChange, ...props }: DateFieldProps) {
  const language = useLanguage();
  const shown = `${DAY_FORMATS[language]} ${TIME}`;
  const formats = [shown, ...DAY_INPUTS.flatMap((day) => TIME_INPUTS.map((time) => `${day} ${time}`))];
  return (
    <Localized>
      <DateInput
        {...props}
        withTime
        valueFormat={shown}
        dateParser={parser(language, formats, true)}
        value={toPickerDateTime(value)}
        onChange={(next) => onChange(fromPickerDateTime(next))}
        clearable={!props.required}
      />
    </Localized>
  );
}

const TIME_PATTERN = /^([01]?\d|2[0-3]):[0-5]\d$/;

/** A time of day in 24 h, typed (the native time input showed 12 h in an English browser). */
export function TimePickerField({ value, onChange, error, ...props }: DateFieldProps) {
  const [text, setText] = useState(value);
  const [shownValue, setShownValue] = useState(value);
  if (value !== shownValue) {
    setShownValue(value);
    setText(value);
  }
  const { t } = useTranslation();
  const valid = TIME_PATTERN.test(text);
  return (
    <TextInput
      {...props}
      value={text}
      placeholder={TIME}
      inputMode="numeric"
      error={error ?? (text && !valid ? t('basics.enterCorrectTime') : undefined)}
      onChange={(event) => {
        const next = event.currentTarget.value;
        setText(next);
        if (TIME_PATTERN.test(next)) {
          const normalized = next.padStart(5, '0');
          setShownValue(normalized);
          onChange(normalized);
        }
      }}
    />
  );
}
