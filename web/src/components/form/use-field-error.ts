import type { FieldError, FieldErrors, FieldValues } from 'react-hook-form';
import { useTranslation } from 'react-i18next';

/** Field errors carry message keys (spec §5); this turns one into the text shown under the input. */
export function useFieldError<T extends FieldValues>(errors: FieldErrors<T>) {
  const { t } = useTranslation();
  return (name: string): string | undefined => {
    let node: unknown = errors;
    for (const part of name.split('.')) node = (node as Record<string, unknown> | undefined)?.[part];
    const message = (node as FieldError | undefined)?.message;
    return message ? t(message) : undefined;
  };
}
