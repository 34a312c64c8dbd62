import { type Language, LANGUAGES } from '@accredo/domain';
import { Paper, SimpleGrid, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { type UseFormRegisterReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useAdminSession } from '../../app/admin-session';
import { sanitizeHtml } from '../../components/sanitize-html';

export { sanitizeHtml };

/** The languages a subject edits texts in (spec §1): all four with multi-language on, else cs only. */
export function useEditLanguages(): readonly Language[] {
  const session = useAdminSession();
  return session.subject.multiLanguage ? LANGUAGES : ['cs'];
}

export interface MultiTextFieldsProps {
  label: string;
  languages: readonly Language[];
  /** registers one language's input, e.g. `(lang) => form.register(\`name.${lang}\`)` */
  register: (language: Language) => UseFormRegisterReturn;
  /** the translated error of one language's input */
  error: (language: Language) => string | undefined;
  /** Czech is required (spec §5: a cs name or label) */
  requiredCs?: boolean;
  /** a multi-line input (html texts) */
  textarea?: boolean;
  description?: string;
}

/**
 * One text per language (spec §1): the Czech input, and the others only when the subject is
 * multi-language. Each input is labelled with its language.
 */
export function MultiTextFields({
  label,
  languages,
  register,
  error,
  requiredCs = false,
  textarea = false,
  description,
}: MultiTextFieldsProps) {
  const { t } = useTranslation();
  const single = languages.length === 1;
  const inputs = languages.map((language) => {
    const props = {
      label: single ? label : `${label} (${t(`lang.${language}`)})`,
      description: single || language === 'cs' ? description : undefined,
      required: requiredCs && language === 'cs',
      error: error(language),
      ...register(language),
    };
    return textarea ? (
      <Textarea key={language} {...props} rows={4} resize="vertical" />
    ) : (
      <TextInput key={language} {...props} />
    );
  });
  if (single) return inputs[0];
  return textarea ? <Stack gap="sm">{inputs}</Stack> : <SimpleGrid cols={{ base: 1, sm: 2 }}>{inputs}</SimpleGrid>;
}

/** Renders html in a bordered box (spec §2: the help text with preview). */
export function HtmlPreview({ label, html }: { label: string; html: string }) {
  const { t } = useTranslation();
  return (
    <div>
      <Text size="sm" fw={500} mb={4}>
        {label}
      </Text>
      <Paper withBorder p="sm" role="region" aria-label={label} mih={40}>
        {html.trim() ? (
          // biome-ignore lint/security/noDangerouslySetInnerHtml: the preview shows the admin's own html, sanitised
          <div dangerouslySetInnerHTML={{ __html: sanitizeHtml(html) }} />
        ) : (
          <Text size="sm" c="dimmed">
            {t('basics.dash')}
          </Text>
        )}
      </Paper>
    </div>
  );
}
