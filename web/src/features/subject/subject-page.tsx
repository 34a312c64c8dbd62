import { type Subject, subjectUpdateSchema } from '@accredo/domain';
import { zodResolver } from '@hookform/resolvers/zod';
import { SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { type FieldValues, type Path, type Resolver, type UseFormReturn, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { adminApi } from '../../api/admin';
import { ADMIN_SESSION_KEY } from '../../app/admin-session';
import { applyLanguage } from '../../app/i18n';
import { notifySuccess } from '../../app/notify';
import { FormShell, BooleanField, useFieldError, SelectField } from '../../components/form';
import { LoadingState } from '../../components/loading-state';
import { PageHeader } from '../../components/page-header';
import { useDetailQuery } from '../../components/use-detail-query';
import { useViewOnly } from '../../components/require-right';

interface SubjectValues {
  name: string;
  multiLanguage: boolean;
  timeZone: string;
}

const subjectValues = (subject: Subject): SubjectValues => ({
  name: subject.name,
  multiLanguage: subject.multiLanguage,
  timeZone: subject.timeZone,
});

/** Every IANA time zone the browser knows, for the time-zone select. */
export function useTimeZones(current: string): string[] {
  return useMemo(() => {
    const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
    return zones.includes(current) || !current ? zones : [current, ...zones];
  }, [current]);
}

/** The read-only list of a subject's extensions (1 meal, 2 parking). */
/** A subject's time zone and multi-language switch (the subject page and the operators' subject form). */
export function SubjectLanguageFields<
  TValues extends FieldValues & { timeZone: string; multiLanguage: boolean },
  TOut,
>({
  form,
  error,
}: {
  form: UseFormReturn<TValues, unknown, TOut>;
  /** the time zone's error */
  error?: string;
}) {
  const { t } = useTranslation();
  const timeZones = useTimeZones(useWatch({ control: form.control, name: 'timeZone' as Path<TValues> }) as string);
  return (
    <>
      <SelectField
        control={form.control}
        name={'timeZone' as Path<TValues>}
        label={t('subject.timeZone')}
        searchable
        allowDeselect={false}
        data={timeZones}
        error={error}
        empty={''}
      />
      <BooleanField control={form.control} name={'multiLanguage' as Path<TValues>} label={t('subject.multiLanguage')} />
    </>
  );
}

export function useExtensionNames() {
  const { t } = useTranslation();
  return (extensions: readonly number[]) =>
    extensions.length === 0
      ? t('basics.dash')
      : extensions.map((e) => t(e === 1 ? 'subject.extensionMeal' : 'subject.extensionParking')).join(', ');
}

/** `/subject` (spec §2): the subject settings. */
export function SubjectPage() {
  const query = useDetailQuery({
    queryKey: ['admin', 'subject'],
    queryFn: adminApi.subject,
    listPath: '/',
    errorKey: 'basics.loadError',
  });
  if (!query.data) return <LoadingState />;
  return <SubjectForm subject={query.data} />;
}

function SubjectForm({ subject }: { subject: Subject }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const viewOnly = useViewOnly('subject', true);
  const extensionNames = useExtensionNames();
  const form = useForm<SubjectValues, unknown, SubjectValues>({
    resolver: zodResolver(subjectUpdateSchema) as unknown as Resolver<SubjectValues, unknown, SubjectValues>,
    defaultValues: subjectValues(subject),
  });
  const fieldError = useFieldError(form.formState.errors);

  const save = async (values: SubjectValues) => {
    const saved = await adminApi.updateSubject(values);
    queryClient.setQueryData(['admin', 'subject'], saved);
    // Spec §4: after saving with multi-language off, the language resets to Czech.
    if (!saved.multiLanguage) applyLanguage('cs');
    await queryClient.invalidateQueries({ queryKey: ADMIN_SESSION_KEY });
    notifySuccess('subject.saved');
    return { values: subjectValues(saved) };
  };

  return (
    <FormShell form={form} readOnly={viewOnly} onSave={save} saveErrorKey="subject.saveError">
      <PageHeader title={t('subject.title')} />
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="xl" maw={1000}>
        <Stack gap="sm">
          <TextInput label={t('subject.name')} required {...form.register('name')} error={fieldError('name')} />
          <SubjectLanguageFields form={form} error={fieldError('timeZone')} />
        </Stack>
        <Stack gap="sm">
          <TextInput label={t('subject.key')} value={subject.key} readOnly variant="filled" />
          <TextInput label={t('subject.deviceKey')} value={subject.deviceKey} readOnly variant="filled" />
          <TextInput
            label={t('subject.pathToFiles')}
            description={t('subject.pathFixedHint')}
            value={subject.pathToFiles}
            readOnly
            variant="filled"
          />
          <TextInput
            label={t('subject.extensions')}
            value={extensionNames(subject.extensions)}
            readOnly
            variant="filled"
          />
        </Stack>
      </SimpleGrid>
    </FormShell>
  );
}
