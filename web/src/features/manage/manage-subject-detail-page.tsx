import { DEFAULT_TIME_ZONE, type ExtensionType, manageSubjectSchema, type Subject } from '@accredo/domain';
import { zodResolver } from '@hookform/resolvers/zod';
import { Checkbox, Group, SimpleGrid, Stack, Tabs, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { Controller, type Resolver, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client';
import { type ManageSubjectPayload, manageApi } from '../../api/manage';
import { i18n } from '../../app/i18n';
import { notifyError, notifySuccess } from '../../app/notify';
import { FormShell, useFieldError } from '../../components/form';
import { PageHeader } from '../../components/page-header';
import { SubjectLanguageFields } from '../subject/subject-page';
import { WebChannelList } from './web-channel-list';
import { RecordPage } from '../../components/record-page';

interface ManageSubjectValues {
  name: string;
  key: string;
  pathToFiles: string;
  multiLanguage: boolean;
  timeZone: string;
  extensions: ExtensionType[];
}

const subjectValues = (subject?: Subject): ManageSubjectValues => ({
  name: subject?.name ?? '',
  key: subject?.key ?? '',
  pathToFiles: subject?.pathToFiles ?? '',
  multiLanguage: subject?.multiLanguage ?? false,
  timeZone: subject?.timeZone ?? DEFAULT_TIME_ZONE,
  extensions: subject?.extensions ?? [],
});

/** Which field a subject conflict belongs to. */
const CONFLICT_FIELD: Record<string, keyof ManageSubjectValues> = {
  SUBJECT_KEY_EXIST: 'key',
  SUBJECT_PATH_EXIST: 'pathToFiles',
  SUBJECT_PATH_FIXED: 'pathToFiles',
};

/** `/manage/subject/create` and `/manage/subject/detail/:id`: basic info and web channels. */
export function ManageSubjectDetailPage() {
  return (
    <RecordPage
      queryKey={(id) => ['manage', 'subject', id]}
      get={(id) => manageApi.subject(id)}
      listPath="/manage"
      errorKey="manage.subjectsLoadError"
      notFoundPath="/manage"
      render={(record) => <ManageSubjectForm subject={record} />}
    />
  );
}

function ManageSubjectForm({ subject }: { subject?: Subject }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const isCreate = !subject;
  const form = useForm<ManageSubjectValues, unknown, ManageSubjectPayload>({
    resolver: zodResolver(manageSubjectSchema) as unknown as Resolver<
      ManageSubjectValues,
      unknown,
      ManageSubjectPayload
    >,
    defaultValues: subjectValues(subject),
  });
  const fieldError = useFieldError(form.formState.errors);

  const save = async (values: ManageSubjectPayload) => {
    void queryClient.invalidateQueries({ queryKey: ['manage', 'subject'], exact: true });
    if (!subject) {
      const created = await manageApi.createSubject(values);
      notifySuccess('manage.subjectCreated');
      return { navigateTo: `/manage/subject/detail/${created.id}` };
    }
    const saved = await manageApi.updateSubject(subject.id, values);
    queryClient.setQueryData(['manage', 'subject', subject.id], saved);
    notifySuccess('manage.subjectSaved');
    return { values: subjectValues(saved) };
  };

  // Spec §8: the subject failure toast appends the error text.
  const onError = (error: unknown) => {
    if (!(error instanceof ApiError)) return false;
    const field = CONFLICT_FIELD[error.code];
    if (field) form.setError(field, { type: 'server', message: `errors.${error.code}` }, { shouldFocus: true });
    const known = i18n.exists(`errors.${error.code}`);
    if (error.fields.length > 0 && !field) return false;
    notifyError('manage.subjectSaveError', {
      error: known ? t(`errors.${error.code}`) : t('basics.unexpectedError'),
    });
    return true;
  };

  const basic = (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="xl" maw={1000}>
      <Stack gap="sm">
        <TextInput label={t('subject.name')} required {...form.register('name')} error={fieldError('name')} />
        <TextInput label={t('subject.key')} required {...form.register('key')} error={fieldError('key')} />
        <TextInput
          label={t('subject.pathToFiles')}
          description={t('subject.pathFixedHint')}
          required
          readOnly={!isCreate}
          variant={isCreate ? 'default' : 'filled'}
          {...form.register('pathToFiles')}
          error={fieldError('pathToFiles')}
        />
      </Stack>
      <Stack gap="sm">
        <SubjectLanguageFields form={form} error={fieldError('timeZone')} />
        <Controller
          control={form.control}
          name="extensions"
          render={({ field }) => (
            <Checkbox.Group
              label={t('subject.extensions')}
              value={field.value.map(String)}
              onChange={(value) => field.onChange(value.map(Number).sort() as ExtensionType[])}
              error={fieldError('extensions')}
            >
              <Group mt={6}>
                <Checkbox value="1" label={t('subject.extensionMeal')} />
                <Checkbox value="2" label={t('subject.extensionParking')} />
              </Group>
            </Checkbox.Group>
          )}
        />
      </Stack>
    </SimpleGrid>
  );

  return (
    <FormShell form={form} onSave={save} onError={onError}>
      <PageHeader title={isCreate ? t('manage.subjectCreate') : `${t('manage.subjectDetail')}: ${subject.name}`} />
      {isCreate ? (
        basic
      ) : (
        <Tabs defaultValue="basic">
          <Tabs.List mb="md">
            <Tabs.Tab value="basic">{t('manage.tabBasic')}</Tabs.Tab>
            <Tabs.Tab value="webChannels">{t('manage.tabWebChannels')}</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="basic">{basic}</Tabs.Panel>
          <Tabs.Panel value="webChannels">
            <WebChannelList subjectId={subject.id} />
          </Tabs.Panel>
        </Tabs>
      )}
    </FormShell>
  );
}
