import { ERRORS, withoutArchived } from '@accredo/domain';
import { Alert, Button, Checkbox, Group, List, Modal, MultiSelect, Radio, Select, Stack, Text } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { actionApi, localized } from '../../../api/action';
import { type BulkResult, type BulkTarget, accreditationListApi } from '../../../api/accreditation-list';
import { ApiError } from '../../../api/client';
import { notifyError, notifySuccess } from '../../../app/notify';
import { LoadingState } from '../../../components/loading-state';
import { WorkingButton } from '../../../components/working-button';
import type { Option } from './filter-panel';
import { ChooseUsersNotice, isNone, isNoneOf, ModalActions, useRequiredChoice } from './selection-modal';

export type BulkKind = 'groups' | 'zones' | 'days' | 'copy' | 'delete';

const TITLES: Record<BulkKind, string> = {
  groups: 'accreditation.assignGroup',
  zones: 'accreditation.assignZones',
  days: 'accreditation.assignDays',
  copy: 'accreditation.copy',
  delete: 'accreditation.delete',
};

const FAILURES: Record<BulkKind, string> = {
  groups: 'accreditation.groupAssignError',
  zones: 'accreditation.zoneAssignError',
  days: 'accreditation.dayAssignError',
  copy: 'accreditation.copyError',
  delete: 'accreditation.deleteError',
};

/** The message of a failed bulk call: a field key of spec §5, a known code of §8, else the call's own toast. */
export function bulkErrorKey(error: unknown, fallback: string): string {
  if (error instanceof ApiError) {
    const field = error.fields.find((f) => f.key.startsWith('accreditation.'));
    if (field) return field.key;
    const known = (ERRORS as Record<string, { key: string } | undefined>)[error.code];
    if (known && !['VALIDATION_ERROR', 'INTERNAL_ERROR', 'BAD_REQUEST'].includes(error.code)) return known.key;
  }
  return fallback;
}

interface ContentProps {
  target: BulkTarget;
  count: number;
  onClose: () => void;
  onDone: (result: BulkResult) => void;
}

function useBulk<V>(kind: BulkKind, run: (value: V) => Promise<BulkResult>, onDone: (r: BulkResult) => void) {
  return useMutation({
    mutationFn: run,
    onSuccess: (result) => {
      notifySuccess('accreditation.rowsChanged', { count: result.changed });
      onDone(result);
    },
    onError: (error) => notifyError(bulkErrorKey(error, FAILURES[kind])),
  });
}

function Affected({ count }: { count: number }) {
  const { t } = useTranslation();
  return (
    <Text size="sm" c="dimmed">
      {t('accreditation.affected', { count })}
    </Text>
  );
}

function GroupsContent({ target, count, onClose, onDone, groups }: ContentProps & { groups: Option[] }) {
  const { t } = useTranslation();
  const choice = useRequiredChoice<string[]>([], 'accreditation.chooseGroup', isNoneOf);
  const [mode, setMode] = useState<'replace' | 'add'>('add');
  const bulk = useBulk(
    'groups',
    (groupsId: number[]) => accreditationListApi.assignGroups({ ...target, groupsId, mode }),
    onDone,
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (choice.check()) bulk.mutate(choice.value.map(Number));
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <Affected count={count} />
        <MultiSelect
          label={t('accreditation.groups')}
          required
          searchable
          nothingFoundMessage={t('basics.noData')}
          data={groups}
          value={choice.value}
          onChange={choice.onChange}
          error={choice.error}
        />
        <Radio.Group
          label={t('accreditation.groupsMode')}
          value={mode}
          onChange={(value) => setMode(value === 'replace' ? 'replace' : 'add')}
        >
          <Stack gap={6} mt={6}>
            <Radio value="add" label={t('accreditation.groupsAdd')} />
            <Radio value="replace" label={t('accreditation.groupsReplace')} />
          </Stack>
        </Radio.Group>
        {mode === 'replace' && (
          <Alert color="yellow" role="status">
            {t('accreditation.groupsReplaceWarning')}
          </Alert>
        )}
      </Stack>
      <ModalActions onClose={onClose} busy={bulk.isPending} label={t('accreditation.assign')} />
    </form>
  );
}

function ZonesContent({ target, count, onClose, onDone, zones }: ContentProps & { zones: Option[] }) {
  const { t } = useTranslation();
  const [value, setValue] = useState<string[]>([]);
  const bulk = useBulk('zones', (ids: number[]) => accreditationListApi.assignZones({ ...target, zones: ids }), onDone);
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        bulk.mutate(value.map(Number));
      }}
    >
      <Stack gap="sm">
        <Affected count={count} />
        <MultiSelect
          label={t('accreditation.zones')}
          description={t('accreditation.zonesHint')}
          searchable
          nothingFoundMessage={t('basics.noData')}
          data={zones}
          value={value}
          onChange={setValue}
        />
      </Stack>
      <ModalActions onClose={onClose} busy={bulk.isPending} label={t('accreditation.assign')} />
    </form>
  );
}

function DaysContent({ target, count, onClose, onDone }: ContentProps) {
  const { t, i18n } = useTranslation();
  const [value, setValue] = useState<string[]>([]);
  const action = useQuery({
    queryKey: ['admin', 'accreditation', 'action-days', target.actionId],
    queryFn: () => actionApi.get(target.actionId),
  });
  const bulk = useBulk('days', (days: string[]) => accreditationListApi.assignDays({ ...target, days }), onDone);
  let body: ReactNode;
  if (action.isPending) body = <LoadingState />;
  else if (action.isError) body = <Alert color="red">{t('basics.loadError')}</Alert>;
  else if (action.data.days.length === 0) body = <Alert color="yellow">{t('accreditation.noDays')}</Alert>;
  else
    body = (
      <Checkbox.Group label={t('accreditation.days')} value={value} onChange={setValue}>
        <Stack gap="xs" mt="xs">
          {action.data.days.map((day) => (
            <Checkbox key={day.id} value={day.id} label={localized(day.name, i18n.language) || day.id} />
          ))}
        </Stack>
      </Checkbox.Group>
    );
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        if (action.data && action.data.days.length > 0) bulk.mutate(value);
      }}
    >
      <Stack gap="sm">
        <Affected count={count} />
        {body}
      </Stack>
      <ModalActions onClose={onClose} busy={bulk.isPending} label={t('accreditation.assign')} />
    </form>
  );
}

function DeleteContent({ target, count, onClose, onDone }: ContentProps) {
  const { t, i18n } = useTranslation();
  const type = useRequiredChoice<string | null>(null, 'basics.requireField', isNone);
  const [confirming, setConfirming] = useState(false);
  const bulk = useBulk('delete', (value: 1 | 2) => accreditationListApi.remove({ ...target, type: value }), onDone);
  // from the system: every accreditation with the same e-mails goes, so the confirmation says how many and where
  const system = confirming && type.value === '2';
  const preview = useQuery({
    queryKey: ['admin', 'accreditation', 'delete-preview', target],
    queryFn: () => accreditationListApi.removePreview({ ...target, type: 2 }),
    enabled: system,
    gcTime: 0,
  });

  if (confirming) {
    return (
      <form
        onSubmit={(event) => {
          event.preventDefault();
          bulk.mutate(type.value === '2' ? 2 : 1);
        }}
      >
        <Alert color="red" role="alert" title={t('accreditation.deleteConfirmTitle')}>
          {system ? (
            preview.data ? (
              <>
                {t('accreditation.deleteConfirmSystem', { count: preview.data.count })}
                <Text size="sm" mt="xs">
                  {t('accreditation.deleteSystemActions')}
                </Text>
                <List size="sm" mt={4}>
                  {preview.data.actions.map((a) => (
                    <List.Item key={a.id}>
                      {localized(a.name, i18n.language)}: {a.count}
                    </List.Item>
                  ))}
                </List>
              </>
            ) : preview.isError ? (
              t('accreditation.deletePreviewError')
            ) : (
              <LoadingState />
            )
          ) : (
            t('accreditation.deleteConfirmAction', { count })
          )}
        </Alert>
        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={() => setConfirming(false)}>
            {t('basics.back')}
          </Button>
          <WorkingButton type="submit" color="red" busy={bulk.isPending} disabled={system && !preview.data}>
            {t('accreditation.deleteConfirm')}
          </WorkingButton>
        </Group>
      </form>
    );
  }
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (type.check()) setConfirming(true);
      }}
    >
      <Stack gap="sm">
        <Affected count={count} />
        <Radio.Group
          label={t('accreditation.deleteType')}
          required
          value={type.value}
          onChange={type.onChange}
          error={type.error}
        >
          <Stack gap="xs" mt="xs">
            <Radio value="1" label={t('accreditation.deleteFromAction')} />
            <Radio value="2" label={t('accreditation.deleteFromSystem')} />
          </Stack>
        </Radio.Group>
      </Stack>
      <ModalActions onClose={onClose} busy={false} label={t('accreditation.continue')} color="red" />
    </form>
  );
}

function CopyContent({ target, count, onClose, onDone }: ContentProps) {
  const { t, i18n } = useTranslation();
  const choice = useRequiredChoice<string | null>(null, 'accreditation.chooseAction', isNone);
  const actions = useQuery({ queryKey: ['admin', 'action'], queryFn: actionApi.list });
  const bulk = useMutation({
    mutationFn: (to: number) => accreditationListApi.copy(target, to),
    onSuccess: (result) => {
      notifySuccess('accreditation.copied', { count: result.changed, skipped: result.skipped });
      onDone(result);
    },
    onError: (err) => notifyError(bulkErrorKey(err, FAILURES.copy)),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (choice.check()) bulk.mutate(Number(choice.value));
  };
  // an archived action takes no new people (issue 15): not offered as the target
  const options = withoutArchived(actions.data ?? [])
    .filter((a) => a.id !== target.actionId)
    .map((a) => ({ value: String(a.id), label: localized(a.name, i18n.language) }));
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <Affected count={count} />
        <Select
          label={t('accreditation.targetAction')}
          required
          searchable
          nothingFoundMessage={t('basics.noData')}
          data={options}
          value={choice.value}
          onChange={choice.onChange}
          error={choice.error}
        />
        <Text size="sm" c="dimmed">
          {t('accreditation.copyHint')}
        </Text>
      </Stack>
      <ModalActions onClose={onClose} busy={bulk.isPending} label={t('accreditation.copy')} />
    </form>
  );
}

export interface BulkModalProps {
  kind: BulkKind | null;
  onClose: () => void;
  target: BulkTarget;
  /** how many accreditations the change applies to (the whole filter with select-all) */
  count: number;
  groups: Option[];
  zones: Option[];
  onDone: (kind: BulkKind, result: BulkResult) => void;
}

/** The bulk changes of the options menu (spec §2 Accreditation list: bulk actions run in modals). */
export function BulkModal({ kind, onClose, target, count, groups, zones, onDone }: BulkModalProps) {
  const { t } = useTranslation();
  const props: ContentProps = {
    target,
    count,
    onClose,
    onDone: (result) => {
      if (kind) onDone(kind, result);
    },
  };
  let content: ReactNode = null;
  if (kind && count === 0) {
    content = <ChooseUsersNotice onClose={onClose} />;
  } else if (kind === 'groups') content = <GroupsContent {...props} groups={groups} />;
  else if (kind === 'zones') content = <ZonesContent {...props} zones={zones} />;
  else if (kind === 'days') content = <DaysContent {...props} />;
  else if (kind === 'copy') content = <CopyContent {...props} />;
  else if (kind === 'delete') content = <DeleteContent {...props} />;

  return (
    <Modal opened={kind !== null} onClose={onClose} title={kind ? t(TITLES[kind]) : ''}>
      {content}
    </Modal>
  );
}
