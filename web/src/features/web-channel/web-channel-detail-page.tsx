import type { WebChannel, WebChannelData } from '@accredo/domain';
import { zodResolver } from '@hookform/resolvers/zod';
import { Grid, Tabs } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { type FieldErrors, type Resolver, type UseFormReturn, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ApiError } from '../../api/client';
import { WEB_CHANNEL_KEY, webChannelApi } from '../../api/web-channel';
import { notifyError, notifySuccess } from '../../app/notify';
import { ErrorTab, FormFields, applyFieldErrors, FormShell, useFieldError, useErrorTabs } from '../../components/form';
import { OnlineLinkButtons } from '../../components/online-link-buttons';
import { DeleteRecordButton } from '../../components/delete-record-button';
import { ArchivedNotice, ArchiveRecordButton, type ArchiveTarget } from '../../components/archive-record-button';

/** The channel as the archive buttons see it (issue 15): an archived channel's form is closed. */
const archiveTarget = (c: { id: number; name: string; archivedAt?: string | null }): ArchiveTarget => ({
  page: 'webChannel',
  path: 'web-channel',
  id: c.id,
  name: c.name,
  archivedAt: c.archivedAt,
  queryKey: WEB_CHANNEL_KEY,
  recordKey: [...WEB_CHANNEL_KEY, c.id],
});
import { PageHeader } from '../../components/page-header';
import { useEditLanguages } from '../action/form-fields';
import { AuthorizationTab } from './authorization-tab';
import {
  AUTHORIZATION_FIELDS,
  type WebChannelFormValues,
  webChannelFormSchema,
  webChannelFormValues,
} from './form-values';
import { InfoTab } from './info-tab';
import { LogoPanel } from './logo-panel';
import { ChannelStateBadge } from './web-channel-list-page';
import { useViewOnly } from '../../components/require-right';
import { RecordPage } from '../../components/record-page';

export type ChannelForm = UseFormReturn<WebChannelFormValues, unknown, WebChannelData>;

export interface ChannelTabProps {
  form: ChannelForm;
  fieldError: (name: string) => string | undefined;
  languages: readonly ('cs' | 'sk' | 'en' | 'de')[];
  /** the stored channel; none while creating */
  channel?: WebChannel;
}

type TabName = 'info' | 'authorization';

function tabsWithErrors(errors: FieldErrors<WebChannelFormValues>): TabName[] {
  const keys = Object.keys(errors) as (keyof WebChannelFormValues)[];
  const out: TabName[] = [];
  if (keys.some((k) => !AUTHORIZATION_FIELDS.includes(k) && k !== 'imageId')) out.push('info');
  if (keys.some((k) => AUTHORIZATION_FIELDS.includes(k))) out.push('authorization');
  return out;
}

/** Failures of a save with their own message (spec §8 Saves: channel users, external codes). */
const CONFLICTS: Record<string, string> = {
  WEB_CHANNEL_USER_EXIST: 'webChannelRules.userLoginExists',
  EXTERNAL_CODE_EXIST: 'webChannelRules.codeExists',
  EXTERNAL_CODE_USED: 'errors.EXTERNAL_CODE_USED',
};

/**
 * `/web-channel/create` and `/web-channel/detail/:id` (spec §2): tabs Info and Authorization and a
 * logo side panel. Every change, codes and users included, applies when the channel is saved.
 */
export function WebChannelDetailPage() {
  return (
    <RecordPage
      queryKey={(id) => [...WEB_CHANNEL_KEY, id]}
      get={(id) => webChannelApi.get(id)}
      listPath="/web-channel"
      errorKey="webChannel.loadError"
      render={(record) => <WebChannelForm channel={record} />}
    />
  );
}

function WebChannelForm({ channel }: { channel?: WebChannel }) {
  const { t } = useTranslation();
  const viewOnly = useViewOnly('webChannel', Boolean(channel));
  const queryClient = useQueryClient();
  const languages = useEditLanguages();
  const [search] = useSearchParams();
  const presetAction = Number(search.get('actionId')) || null;
  const [hasPassword, setHasPassword] = useState(channel?.hasPassword ?? false);
  const schema = useMemo(() => webChannelFormSchema(hasPassword), [hasPassword]);
  const form = useForm<WebChannelFormValues, unknown, WebChannelData>({
    resolver: zodResolver(schema as never) as unknown as Resolver<WebChannelFormValues, unknown, WebChannelData>,
    defaultValues: webChannelFormValues(channel, presetAction),
  });
  const fieldError = useFieldError(form.formState.errors);
  const { tab, setTab, errorTabs } = useErrorTabs(form, tabsWithErrors, 'info' as TabName);

  const save = async (values: WebChannelData) => {
    if (!channel) {
      const created = await webChannelApi.create(values);
      notifySuccess('webChannel.created');
      void queryClient.invalidateQueries({ queryKey: WEB_CHANNEL_KEY, exact: true });
      return { navigateTo: `/web-channel/detail/${created.id}` };
    }
    const saved = await webChannelApi.update(channel.id, values);
    notifySuccess('webChannel.saved');
    setHasPassword(saved.hasPassword);
    queryClient.setQueryData([...WEB_CHANNEL_KEY, channel.id], saved);
    void queryClient.invalidateQueries({ queryKey: WEB_CHANNEL_KEY, exact: true });
    return { values: webChannelFormValues(saved) };
  };

  const onError = (error: unknown) => {
    if (!(error instanceof ApiError) || !(error.code in CONFLICTS)) return false;
    applyFieldErrors(error, form.setError);
    notifyError(CONFLICTS[error.code]);
    return true;
  };

  const tabLabel = (name: TabName) => (
    <ErrorTab
      value={name}
      label={t(`webChannel.tab.${name}`)}
      hasErrors={errorTabs.includes(name)}
      errorLabel={t('webChannel.tabHasErrors')}
    />
  );

  const tabProps: ChannelTabProps = { form, fieldError, languages, channel };
  const title = channel ? `${t('webChannel.detail')}: ${channel.name}` : t('webChannel.create');

  return (
    <FormShell
      form={form}
      readOnly={viewOnly}
      wrapFields={false}
      onSave={save}
      onError={onError}
      saveErrorKey="webChannel.saveError"
    >
      <PageHeader title={title}>
        {channel && <ChannelStateBadge state={channel.state} />}
        {channel && <OnlineLinkButtons channelKey={channel.channelKey} />}
        {channel && <ArchiveRecordButton {...archiveTarget(channel)} />}
        {channel && (
          <DeleteRecordButton
            page="webChannel"
            name={channel.name}
            remove={() => webChannelApi.remove(channel.id)}
            listPath="/web-channel"
            queryKey={WEB_CHANNEL_KEY}
            recordKey={[...WEB_CHANNEL_KEY, channel.id]}
            archive={archiveTarget(channel)}
          />
        )}
      </PageHeader>
      <ArchivedNotice archivedAt={channel?.archivedAt} />
      <Grid gap="xl">
        <Grid.Col span={{ base: 12, md: 8, lg: 9 }}>
          <Tabs value={tab} onChange={(value) => setTab((value as TabName) ?? 'info')} keepMountedMode="display-none">
            <Tabs.List mb="md">
              {tabLabel('info')}
              {tabLabel('authorization')}
            </Tabs.List>
            <Tabs.Panel value="info">
              <FormFields>
                <InfoTab {...tabProps} />
              </FormFields>
            </Tabs.Panel>
            <Tabs.Panel value="authorization">
              <AuthorizationTab {...tabProps} hasPassword={hasPassword} />
            </Tabs.Panel>
          </Tabs>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4, lg: 3 }}>
          <FormFields>
            <LogoPanel form={form} channel={channel} />
          </FormFields>
        </Grid.Col>
      </Grid>
    </FormShell>
  );
}
