import { templateSchema } from '@accredo/domain';
import { zodResolver } from '@hookform/resolvers/zod';
import { Grid, Stack, Textarea, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { type Resolver, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { type TemplateDto, type TemplatePayload, templateApi } from '../../api/template';
import { notifySuccess } from '../../app/notify';
import { FormFields, FormShell, useFieldError, SelectField } from '../../components/form';
import { PageHeader } from '../../components/page-header';
import { PlaceholderHelp } from './placeholder-help';
import { type PageSize, pageSizeData } from './template-constants';
import { TemplatePreviewTools } from './template-preview';
import { TEMPLATES_KEY } from './template-list-page';
import { useViewOnly } from '../../components/require-right';
import { RecordPage } from '../../components/record-page';

export interface TemplateFormValues {
  name: string;
  type: number;
  pageSize: PageSize;
  htmlData: string;
}

export const templateFormValues = (template?: TemplateDto): TemplateFormValues => ({
  name: template?.name ?? '',
  type: template?.type ?? 1,
  pageSize: template?.pageSize ?? 'A6',
  htmlData: template?.htmlData ?? '',
});

const resolver = zodResolver(templateSchema) as unknown as Resolver<TemplateFormValues, unknown, TemplatePayload>;

/** `/template/create` and `/template/detail/:id`: an accreditation (badge) template as data. */
export function TemplateDetailPage() {
  return (
    <RecordPage
      queryKey={(id) => [...TEMPLATES_KEY, id]}
      get={(id) => templateApi.get(id)}
      listPath="/template?tab=accreditation"
      errorKey="template.loadError"
      render={(record) => <TemplateForm template={record} />}
    />
  );
}

function TemplateForm({ template }: { template?: TemplateDto }) {
  const { t } = useTranslation();
  const viewOnly = useViewOnly('template', Boolean(template));
  const queryClient = useQueryClient();
  const form = useForm<TemplateFormValues, unknown, TemplatePayload>({
    resolver,
    defaultValues: templateFormValues(template),
  });
  const fieldError = useFieldError(form.formState.errors);

  const save = async (values: TemplatePayload) => {
    if (!template) {
      const created = await templateApi.create(values);
      notifySuccess('template.created');
      void queryClient.invalidateQueries({ queryKey: TEMPLATES_KEY, exact: true });
      return { navigateTo: `/template/detail/${created.id}` };
    }
    const saved = await templateApi.update(template.id, values);
    notifySuccess('template.saved');
    queryClient.setQueryData([...TEMPLATES_KEY, template.id], saved);
    void queryClient.invalidateQueries({ queryKey: TEMPLATES_KEY, exact: true });
    void queryClient.invalidateQueries({ queryKey: ['admin', 'groups'] });
    return { values: templateFormValues(saved) };
  };

  return (
    <FormShell form={form} readOnly={viewOnly} wrapFields={false} onSave={save} saveErrorKey="template.saveError">
      <PageHeader title={template ? `${t('template.detail')}: ${template.name}` : t('template.create')} />
      <Grid gap="xl">
        <Grid.Col span={{ base: 12, lg: 7 }}>
          <Stack gap="sm">
            <FormFields>
              <Stack gap="sm">
                <TextInput label={t('basics.name')} required {...form.register('name')} error={fieldError('name')} />
                <SelectField
                  control={form.control}
                  name="pageSize"
                  label={t('template.pageSize')}
                  required
                  allowDeselect={false}
                  data={pageSizeData(t)}
                  error={fieldError('pageSize')}
                />
                <Textarea
                  label={t('template.htmlData')}
                  description={t('template.htmlDataHint')}
                  rows={14}
                  resize="vertical"
                  spellCheck={false}
                  styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 13 } }}
                  {...form.register('htmlData')}
                  error={fieldError('htmlData')}
                />
              </Stack>
            </FormFields>
            <TemplatePreviewTools
              type="html"
              getHtml={() => form.getValues('htmlData')}
              pageSize={form.watch('pageSize')}
            />
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 5 }}>
          <PlaceholderHelp />
        </Grid.Col>
      </Grid>
    </FormShell>
  );
}
