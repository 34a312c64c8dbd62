import { actionSchema, hasRight } from '@accredo/domain';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Tabs } from '@mantine/core';
import { IconExternalLink } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { type FieldErrors, type Resolver, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ACTION_LIST_KEY, type ActionDto, type ActionPayload, actionApi, localized } from '../../api/action';
import { useAdminSession } from '../../app/admin-session';
import { notifySuccess } from '../../app/notify';
import { ErrorTab, FormFields, FormShell, useFieldError, useErrorTabs } from '../../components/form';
import { DeleteRecordButton } from '../../components/delete-record-button';
import { ArchivedNotice, ArchiveRecordButton, type ArchiveTarget } from '../../components/archive-record-button';
import { PageHeader } from '../../components/page-header';
import { type ActionFormValues, actionFormValues } from './action-form-values';
import { BasicTab } from './basic-tab';
import { DateTab } from './date-tab';
import { useEditLanguages } from './form-fields';
import { OnlineTab } from './online-tab';
import { OptionalTab } from './optional-tab';
import { PreviewTab } from './preview-tab';
import { useViewOnly } from '../../components/require-right';
import { RecordPage } from '../../components/record-page';

type TabName = 'basic' | 'date' | 'online' | 'optional' | 'preview';
const TABS: TabName[] = ['basic', 'date', 'online', 'optional', 'preview'];

/** Which tab holds a field with an error, so a failed save can point there. */
function tabsWithErrors(errors: FieldErrors<ActionFormValues>): TabName[] {
  const has = (...names: (keyof ActionFormValues)[]) => names.some((n) => errors[n] !== undefined);
  const found: Record<TabName, boolean> = {
    basic: has('name', 'afterMailTemplateId', 'isCredit', 'withPhoto', 'requirePhoto', 'smartBc', 'customField'),
    date: has('dateFrom', 'dateTo', 'multiDay', 'days'),
    online: has('textOnline', 'textAfterAdd'),
    optional: has('checkingAttributes'),
    preview: has('previewData'),
  };
  return TABS.filter((tab) => found[tab]);
}

/** The test preview of an action (spec §2): the preview page with the action's test code. */
export function testPreviewPath(subjectKey: string, actionId: number): string {
  return `/preview/${encodeURIComponent(subjectKey)}/cid/tst${actionId}`;
}

/**
 * `/action/create` and `/action/detail/:id` (spec §2 Action form tabs). A failed load goes home
 * (spec §8).
 */
export function ActionDetailPage() {
  return (
    <RecordPage
      queryKey={(id) => ['admin', 'action', id]}
      get={(id) => actionApi.get(id)}
      listPath="/"
      errorKey="action.loadError"
      render={(record) => <ActionForm action={record} />}
    />
  );
}

function ActionForm({ action }: { action?: ActionDto }) {
  const { t, i18n } = useTranslation();
  const viewOnly = useViewOnly('action', Boolean(action));
  const session = useAdminSession();
  const queryClient = useQueryClient();
  const languages = useEditLanguages();
  const form = useForm<ActionFormValues, unknown, ActionPayload>({
    resolver: zodResolver(actionSchema) as unknown as Resolver<ActionFormValues, unknown, ActionPayload>,
    defaultValues: actionFormValues(action),
  });
  const fieldError = useFieldError(form.formState.errors);
  const smartBc = useWatch({ control: form.control, name: 'smartBc' });
  const { tab, setTab, errorTabs } = useErrorTabs(form, tabsWithErrors, 'basic' as TabName);
  // Spec §2: meal and parking sections appear only when the action has that extension.
  const extensions = session.subject.extensions.filter((e) => action?.extension.includes(e));
  const showPreview = smartBc || errorTabs.includes('preview');

  useEffect(() => {
    if (!showPreview && tab === 'preview') setTab('basic');
  }, [showPreview, tab, setTab]);

  const save = async (values: ActionPayload) => {
    if (!action) {
      const created = await actionApi.create(values);
      notifySuccess('action.created');
      void queryClient.invalidateQueries({ queryKey: ACTION_LIST_KEY, exact: true });
      return { navigateTo: `/action/detail/${created.id}` };
    }
    const saved = await actionApi.update(action.id, values);
    notifySuccess('action.saved');
    queryClient.setQueryData(['admin', 'action', action.id], saved);
    void queryClient.invalidateQueries({ queryKey: ACTION_LIST_KEY, exact: true });
    return { values: actionFormValues(saved) };
  };

  const tabLabel = (name: TabName) => (
    <ErrorTab
      value={name}
      label={t(`action.tab.${name}`)}
      hasErrors={errorTabs.includes(name)}
      errorLabel={t('action.tabHasErrors')}
    />
  );

  const tabProps = { form, languages, fieldError };
  const archiveTarget = (a: ActionDto): ArchiveTarget => ({
    page: 'action',
    path: 'action',
    id: a.id,
    name: localized(a.name, i18n.language),
    archivedAt: a.archivedAt,
    queryKey: ACTION_LIST_KEY,
    recordKey: ['admin', 'action', a.id],
  });
  const title = action ? `${t('action.detail')}: ${localized(action.name, i18n.language)}` : t('action.create');

  return (
    <FormShell form={form} readOnly={viewOnly} wrapFields={false} onSave={save} saveErrorKey="action.saveError">
      <PageHeader title={title}>
        {/* spec §2: the test preview only with smartBc (saved), only for holders of the right to open previews */}
        {action?.smartBc && hasRight(session, 'user', 'goToPreview') && (
          <Button
            component="a"
            href={testPreviewPath(session.subject.key, action.id)}
            target="_blank"
            rel="noopener noreferrer"
            variant="default"
            leftSection={<IconExternalLink size={16} />}
          >
            {t('action.testPreview')}
          </Button>
        )}
        {action && <ArchiveRecordButton {...archiveTarget(action)} />}
        {action && (
          <DeleteRecordButton
            page="action"
            name={localized(action.name, i18n.language)}
            remove={() => actionApi.remove(action.id)}
            listPath="/action"
            queryKey={ACTION_LIST_KEY}
            recordKey={['admin', 'action', action.id]}
            archive={archiveTarget(action)}
          />
        )}
      </PageHeader>
      <ArchivedNotice archivedAt={action?.archivedAt} />
      <Tabs value={tab} onChange={(value) => setTab((value as TabName) ?? 'basic')} keepMountedMode="display-none">
        <Tabs.List mb="md">
          {tabLabel('basic')}
          {tabLabel('date')}
          {tabLabel('online')}
          {tabLabel('optional')}
          {showPreview && tabLabel('preview')}
        </Tabs.List>
        <Tabs.Panel value="basic">
          <FormFields>
            <BasicTab {...tabProps} />
          </FormFields>
        </Tabs.Panel>
        <Tabs.Panel value="date">
          <FormFields>
            <DateTab {...tabProps} />
          </FormFields>
        </Tabs.Panel>
        <Tabs.Panel value="online">
          <FormFields>
            <OnlineTab {...tabProps} />
          </FormFields>
        </Tabs.Panel>
        <Tabs.Panel value="optional">
          <FormFields>
            <OptionalTab {...tabProps} />
          </FormFields>
        </Tabs.Panel>
        {showPreview && (
          <Tabs.Panel value="preview">
            <FormFields>
              <PreviewTab {...tabProps} extensions={extensions} />
            </FormFields>
          </Tabs.Panel>
        )}
      </Tabs>
    </FormShell>
  );
}
