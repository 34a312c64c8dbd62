import { hasRight, templateSchema } from '@accredo/domain';
import { zodResolver } from '@hookform/resolvers/zod';
import { Grid, Stack, TextInput } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { Controller, type Resolver, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { localized } from '../../api/action';
import { CUSTOM_FIELD_LIST_KEY, customFieldApi } from '../../api/custom-field';
import { groupsApi } from '../../api/groups';
import { type TemplateDto, type TemplatePayload, templateApi, templateEngineApi } from '../../api/template';
import { zoneApi } from '../../api/zone';
import { useAdminSession } from '../../app/admin-session';
import { notifySuccess } from '../../app/notify';
import { FormFields, FormShell, useFieldError, SelectField } from '../../components/form';
import { DeleteRecordButton } from '../../components/delete-record-button';
import { ArchivedNotice, ArchiveRecordButton, type ArchiveTarget } from '../../components/archive-record-button';

/** The badge template as the archive buttons see it (issue 15): no group chooses an archived one anew. */
const archiveTarget = (tpl: { id: number; name: string; archivedAt?: string | null }): ArchiveTarget => ({
  page: 'template',
  path: 'template',
  id: tpl.id,
  name: tpl.name,
  archivedAt: tpl.archivedAt,
  queryKey: TEMPLATES_KEY,
  recordKey: [...TEMPLATES_KEY, tpl.id],
});
import { PageHeader } from '../../components/page-header';
import { useCurrentAction } from '../action/use-current-action';
import { BadgeLivePreview } from './badge-live-preview';
import { checkMarks, type EditorMark, errorMarks, placeholderOptions } from './editor-support';
import { PlaceholderHelp } from './placeholder-help';
import { type PageSize, pageSizeData } from './template-constants';
import { TemplateHtmlField } from './template-html-field';
import { TemplatePreviewTools } from './template-preview';
import { useSampleParams } from './use-sample-params';
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

/**
 * What the badge editor offers after `{{` and how it checks while typing: the catalogue, the
 * current action's user fields, groups and zones, and POST template/validate with the sample
 * person (when the user may check templates).
 */
function useEditorSupport() {
  const { t, i18n } = useTranslation();
  const session = useAdminSession();
  const { action } = useCurrentAction();
  const sample = useSampleParams();
  const groups = useQuery({
    queryKey: ['admin', 'groups'],
    queryFn: groupsApi.list,
    enabled: hasRight(session, 'groups', 'get'),
  });
  const zones = useQuery({
    queryKey: ['admin', 'zone'],
    queryFn: zoneApi.list,
    enabled: hasRight(session, 'zone', 'get'),
  });
  const fields = useQuery({
    queryKey: CUSTOM_FIELD_LIST_KEY,
    queryFn: customFieldApi.list,
    enabled: hasRight(session, 'customField', 'get'),
  });
  const options = useMemo(
    () =>
      placeholderOptions(t, {
        // each user field by its label in the UI language (its name where it has none)
        fields:
          action?.customField.map((f) => {
            const label = localized(fields.data?.find((d) => d.id === f.id)?.label, i18n.language);
            return { id: f.id, name: label || f.name };
          }) ?? [],
        groups: (groups.data ?? []).filter((g) => !action || g.actionId === action.id).map((g) => g.name),
        zones: (zones.data ?? []).filter((z) => !action || z.actionId === action.id).map((z) => z.name),
      }),
    [t, i18n.language, action, groups.data, zones.data, fields.data],
  );
  const params = sample.params;
  const canCheck = hasRight(session, 'template', 'postValidateTemplate');
  const check = useCallback(
    async (text: string): Promise<EditorMark[]> => {
      try {
        return checkMarks(t, await templateEngineApi.validate(text, params));
      } catch (error) {
        const marks = errorMarks(error);
        if (marks.length) return marks;
        throw error;
      }
    },
    [t, params],
  );
  return { options, check: canCheck ? check : undefined };
}

function TemplateForm({ template }: { template?: TemplateDto }) {
  const { t } = useTranslation();
  const editor = useEditorSupport();
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
      <PageHeader title={template ? `${t('template.detail')}: ${template.name}` : t('template.create')}>
        {template && <ArchiveRecordButton {...archiveTarget(template)} />}
        {template && (
          <DeleteRecordButton
            page="template"
            name={template.name}
            remove={() => templateApi.remove(template.id)}
            listPath="/template?tab=accreditation"
            queryKey={TEMPLATES_KEY}
            recordKey={[...TEMPLATES_KEY, template.id]}
            archive={archiveTarget(template)}
          />
        )}
      </PageHeader>
      <ArchivedNotice archivedAt={template?.archivedAt} />
      <Grid gap="xl">
        <Grid.Col span={{ base: 12, lg: 6 }}>
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
                <Controller
                  control={form.control}
                  name="htmlData"
                  render={({ field }) => (
                    <TemplateHtmlField
                      label={t('template.htmlData')}
                      description={t('template.htmlDataHint')}
                      value={field.value ?? ''}
                      onChange={field.onChange}
                      onBlur={field.onBlur}
                      readOnly={viewOnly}
                      error={fieldError('htmlData')}
                      options={editor.options}
                      check={editor.check}
                    />
                  )}
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
        <Grid.Col span={{ base: 12, lg: 6 }}>
          <Stack gap="md" style={{ position: 'sticky', top: 'var(--mantine-spacing-md)' }}>
            <BadgeLivePreview html={form.watch('htmlData') ?? ''} pageSize={form.watch('pageSize')} />
            <PlaceholderHelp />
          </Stack>
        </Grid.Col>
      </Grid>
    </FormShell>
  );
}
