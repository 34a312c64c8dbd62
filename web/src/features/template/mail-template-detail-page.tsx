import {
  MAIL_TRANSLATION_LANGUAGES,
  type MailTranslationLanguage,
  mailTemplateSchema,
  subjectLanguages,
} from '@accredo/domain';
import { zodResolver } from '@hookform/resolvers/zod';
import { ActionIcon, Button, Fieldset, Group, Select, Stack, Tabs, Text, Textarea, TextInput } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Controller, type Resolver, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { type MailTemplateDto, type MailTemplatePayload, mailTemplateApi } from '../../api/template';
import { useAdminSession } from '../../app/admin-session';
import { notifySuccess } from '../../app/notify';
import { FormFields, FormShell, BooleanField, useFieldError } from '../../components/form';
import { LoadingState } from '../../components/loading-state';
import { DeleteRecordButton } from '../../components/delete-record-button';
import { PageHeader } from '../../components/page-header';
import { useDetailQuery } from '../../components/use-detail-query';
import { MAIL_TEMPLATES_KEY, TEMPLATES_KEY } from './template-list-page';
import { TemplatePreviewTools } from './template-preview';
import { TestMailButton } from './test-mail-modal';
import { useViewOnly } from '../../components/require-right';

export interface MailTemplateFormValues {
  name: string;
  type: 1 | 2;
  subjectFrom: string;
  withAccreditation: boolean;
  mailCopy: string[];
  html: string;
  /** the subject line and body in sk, en, de (issue 15); empty: that language gets the Czech text */
  translations: Record<MailTranslationLanguage, { subjectFrom: string; html: string }>;
}

export const mailTemplateFormValues = (mail?: MailTemplateDto, html = ''): MailTemplateFormValues => ({
  name: mail?.name ?? '',
  type: mail?.type === 1 ? 1 : 2,
  subjectFrom: mail?.subjectFrom ?? '',
  withAccreditation: mail?.withAccreditation ?? false,
  mailCopy: mail?.mailCopy ?? [],
  html: mail?.html ?? html,
  translations: Object.fromEntries(
    MAIL_TRANSLATION_LANGUAGES.map((lang) => [
      lang,
      { subjectFrom: mail?.translations?.[lang]?.subjectFrom ?? '', html: mail?.translations?.[lang]?.html ?? '' },
    ]),
  ) as MailTemplateFormValues['translations'],
});

/** The language tab holding a field error (the form opens it, so the error is seen), or null. */
export function languageOfError(errors: Record<string, unknown>): string | null {
  if (errors.subjectFrom || errors.html) return 'cs';
  const translations = errors.translations as Record<string, unknown> | undefined;
  return MAIL_TRANSLATION_LANGUAGES.find((lang) => translations?.[lang]) ?? null;
}

const resolver = zodResolver(mailTemplateSchema) as unknown as Resolver<
  MailTemplateFormValues,
  unknown,
  MailTemplatePayload
>;

/** `/mail-template/create` and `/mail-template/detail/:id` (spec §2 Other forms: mail template form). */
export function MailTemplateDetailPage() {
  const params = useParams();
  const id = Number(params.id);
  const isCreate = !params.id;
  const query = useDetailQuery({
    queryKey: [...MAIL_TEMPLATES_KEY, id],
    queryFn: () => mailTemplateApi.get(id),
    enabled: !isCreate,
    listPath: '/template?tab=mail',
    errorKey: 'mailTemplate.loadError',
  });
  // A new one starts with the sample body (spec §2); without it the form still opens empty.
  const sample = useQuery({
    queryKey: [...MAIL_TEMPLATES_KEY, 'default'],
    queryFn: mailTemplateApi.defaultBody,
    enabled: isCreate,
    staleTime: Number.POSITIVE_INFINITY,
  });
  if (isCreate) {
    if (sample.isPending) return <LoadingState />;
    return <MailTemplateForm key="create" sampleHtml={sample.data?.html ?? ''} />;
  }
  if (!query.data) return <LoadingState />;
  return <MailTemplateForm key={id} mail={query.data} />;
}

function MailTemplateForm({ mail, sampleHtml = '' }: { mail?: MailTemplateDto; sampleHtml?: string }) {
  const { t } = useTranslation();
  const viewOnly = useViewOnly('mailTemplate', Boolean(mail));
  const queryClient = useQueryClient();
  const form = useForm<MailTemplateFormValues, unknown, MailTemplatePayload>({
    resolver,
    defaultValues: mailTemplateFormValues(mail, sampleHtml),
  });
  const fieldError = useFieldError(form.formState.errors);
  // One tab per language of the subject (issue 15): Czech required, the others optional. Texts of
  // a language the subject no longer offers stay in the form and are saved as they were.
  const session = useAdminSession();
  const languages = subjectLanguages(session.subject.multiLanguage);
  const [language, setLanguage] = useState<string>('cs');
  const errors = form.formState.errors;
  useEffect(() => {
    const withError = languageOfError(errors as Record<string, unknown>);
    if (withError) setLanguage(withError);
  }, [errors]);
  const watched = form.watch('translations');
  const htmlOf = (lang: string) =>
    lang === 'cs' ? form.getValues('html') : form.getValues(`translations.${lang as MailTranslationLanguage}.html`);

  const save = async (values: MailTemplatePayload) => {
    if (!mail) {
      const created = await mailTemplateApi.create(values);
      notifySuccess('mailTemplate.created');
      void queryClient.invalidateQueries({ queryKey: TEMPLATES_KEY, exact: true });
      void queryClient.invalidateQueries({ queryKey: MAIL_TEMPLATES_KEY, exact: true });
      return { navigateTo: `/mail-template/detail/${created.id}` };
    }
    const saved = await mailTemplateApi.update(mail.id, values);
    notifySuccess('mailTemplate.saved');
    queryClient.setQueryData([...MAIL_TEMPLATES_KEY, mail.id], saved);
    void queryClient.invalidateQueries({ queryKey: TEMPLATES_KEY, exact: true });
    void queryClient.invalidateQueries({ queryKey: MAIL_TEMPLATES_KEY, exact: true });
    return { values: mailTemplateFormValues(saved) };
  };

  return (
    <FormShell form={form} readOnly={viewOnly} wrapFields={false} onSave={save} saveErrorKey="mailTemplate.saveError">
      <PageHeader title={mail ? `${t('mailTemplate.detail')}: ${mail.name}` : t('mailTemplate.create')}>
        {mail && <TestMailButton mailTemplateId={mail.id} language={languages.length > 1 ? language : undefined} />}
        {mail && (
          <DeleteRecordButton
            page="mailTemplate"
            name={mail.name}
            remove={() => mailTemplateApi.remove(mail.id)}
            listPath="/template?tab=mail"
            queryKey={TEMPLATES_KEY}
            alsoInvalidate={[MAIL_TEMPLATES_KEY]}
            recordKey={[...MAIL_TEMPLATES_KEY, mail.id]}
          />
        )}
      </PageHeader>
      <Stack gap="sm" maw={860}>
        <FormFields>
          <TextInput label={t('basics.name')} required {...form.register('name')} error={fieldError('name')} />
          <Controller
            control={form.control}
            name="type"
            render={({ field }) => (
              <Select
                label={t('mailTemplate.type')}
                required
                allowDeselect={false}
                data={[
                  { value: '1', label: t('mailTemplate.type1') },
                  { value: '2', label: t('mailTemplate.type2') },
                ]}
                value={String(field.value)}
                onChange={(value) => field.onChange(value === '1' ? 1 : 2)}
                onBlur={field.onBlur}
                ref={field.ref}
                error={fieldError('type')}
              />
            )}
          />
          <BooleanField
            control={form.control}
            name="withAccreditation"
            label={t('mailTemplate.withAccreditation')}
            description={t('mailTemplate.withAccreditationHint')}
          />
          <Controller
            control={form.control}
            name="mailCopy"
            render={({ field }) => (
              <Fieldset legend={t('mailTemplate.mailCopy')} variant="filled">
                <Stack gap="xs">
                  {field.value.length === 0 && (
                    <Text size="sm" c="dimmed">
                      {t('mailTemplate.noCopies')}
                    </Text>
                  )}
                  {field.value.map((address, index) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: the rows are positions in a list of plain strings
                    <Group key={index} gap="xs" align="flex-start" wrap="nowrap">
                      <TextInput
                        style={{ flex: 1 }}
                        type="email"
                        label={t('mailTemplate.copyAddress', { n: index + 1 })}
                        value={address}
                        onChange={(event) => {
                          const next = [...field.value];
                          next[index] = event.currentTarget.value;
                          field.onChange(next);
                        }}
                        onBlur={field.onBlur}
                        error={fieldError(`mailCopy.${index}`)}
                      />
                      <ActionIcon
                        mt={26}
                        variant="subtle"
                        color="red"
                        aria-label={t('mailTemplate.removeCopy', { n: index + 1 })}
                        onClick={() => field.onChange(field.value.filter((_, i) => i !== index))}
                      >
                        <IconTrash size={16} />
                      </ActionIcon>
                    </Group>
                  ))}
                  {fieldError('mailCopy') && (
                    <Text size="sm" c="red">
                      {fieldError('mailCopy')}
                    </Text>
                  )}
                  <Group>
                    <Button
                      variant="light"
                      size="xs"
                      leftSection={<IconPlus size={14} />}
                      disabled={field.value.length >= 20}
                      onClick={() => field.onChange([...field.value, ''])}
                    >
                      {t('mailTemplate.addCopy')}
                    </Button>
                  </Group>
                </Stack>
              </Fieldset>
            )}
          />
          <Fieldset legend={t('mailTemplate.languages')} variant="unstyled">
            {languages.length > 1 && (
              <Text size="sm" c="dimmed" mb="xs">
                {t('mailTemplate.languagesHint')}
              </Text>
            )}
            <Tabs value={language} onChange={(value) => setLanguage(value ?? 'cs')} keepMounted>
              {languages.length > 1 && (
                <Tabs.List mb="sm">
                  {languages.map((lang) => {
                    const name = t(`lang.${lang}`);
                    const empty =
                      lang !== 'cs' &&
                      !watched?.[lang as MailTranslationLanguage]?.subjectFrom?.trim() &&
                      !watched?.[lang as MailTranslationLanguage]?.html?.trim();
                    return (
                      <Tabs.Tab
                        key={lang}
                        value={lang}
                        c={empty ? 'dimmed' : undefined}
                        title={empty ? t('mailTemplate.languageEmpty', { language: name }) : undefined}
                      >
                        {lang === 'cs' ? t('mailTemplate.languageRequired', { language: name }) : name}
                      </Tabs.Tab>
                    );
                  })}
                </Tabs.List>
              )}
              {languages.map((lang) => {
                const prefix = lang === 'cs' ? '' : `translations.${lang}.`;
                const subjectName = `${prefix}subjectFrom` as 'subjectFrom';
                const htmlName = `${prefix}html` as 'html';
                return (
                  <Tabs.Panel key={lang} value={lang}>
                    <Stack gap="sm">
                      {lang !== 'cs' && (
                        <Text size="sm" c="dimmed">
                          {t('mailTemplate.translationHint')}
                        </Text>
                      )}
                      <TextInput
                        label={t('mailTemplate.subjectFrom')}
                        description={t('mailTemplate.subjectFromHint')}
                        required={lang === 'cs'}
                        lang={lang}
                        {...form.register(subjectName)}
                        error={fieldError(subjectName)}
                      />
                      <Textarea
                        label={t('mailTemplate.html')}
                        description={t('mailTemplate.htmlHint', {
                          examples: '{{firstname}}, {{lastname}}, {{bc}}, {{actionName}}',
                        })}
                        rows={12}
                        resize="vertical"
                        spellCheck={false}
                        lang={lang}
                        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 13 } }}
                        {...form.register(htmlName)}
                        error={fieldError(htmlName)}
                      />
                    </Stack>
                  </Tabs.Panel>
                );
              })}
            </Tabs>
          </Fieldset>
        </FormFields>
        <TemplatePreviewTools type="mail" getHtml={() => htmlOf(language)} />
      </Stack>
    </FormShell>
  );
}
