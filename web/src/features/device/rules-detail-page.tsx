import type { DeviceTemplateDto } from '@accredo/domain';
import {
  ActionIcon,
  Alert,
  Button,
  Divider,
  Group,
  Paper,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { type Control, Controller, useFieldArray, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { customFieldApi } from '../../api/custom-field';
import { type DeviceTemplatePayload, deviceApi } from '../../api/device';
import { groupsApi } from '../../api/groups';
import { zoneApi } from '../../api/zone';
import { notifySuccess } from '../../app/notify';
import { applyFieldErrors, BooleanField, FormShell, SelectField, useFieldError } from '../../components/form';
import { PageHeader } from '../../components/page-header';
import { RecordPage } from '../../components/record-page';
import { useViewOnly } from '../../components/require-right';
import { notifyError } from '../../app/notify';
import { ApiError } from '../../api/client';
import { useActionSelectData } from '../groups/setup-shared';
import { RuleSimulator } from './rule-simulator';
import {
  emptyCustomRule,
  emptyRule,
  formPath,
  type RulesFormValues,
  rulesFormValues,
  rulesResolver,
} from './rules-form';
import { DEVICE_MODES, TEMPLATES_KEY } from './shared';

/** `/device/rules/create` and `/device/rules/detail/:id` (spec §2, §3 Device template, §4, §5). */
export function RulesDetailPage() {
  return (
    <RecordPage
      queryKey={(id) => [...TEMPLATES_KEY, id]}
      get={(id) => deviceApi.template(id)}
      listPath="/device/rules"
      notFoundPath="/device/rules"
      errorKey="device.rules.loadError"
      render={(record) => <RulesForm template={record} />}
    />
  );
}

/**
 * User fields that can hold a date: spec §3 has no date type, so TEXT fields holding YYYY-MM-DD
 * (what the engine compares with today; anything else is CUSTOM_DATE_INVALID, D10).
 */
const DATE_CAPABLE_TYPES = [1];

function RulesForm({ template }: { template?: DeviceTemplateDto }) {
  const { t } = useTranslation();
  const viewOnly = useViewOnly('deviceTemplate', Boolean(template));
  const queryClient = useQueryClient();
  const [search] = useSearchParams();
  const actionData = useActionSelectData({ id: template?.actionId ?? null });
  const form = useForm<RulesFormValues, unknown, DeviceTemplatePayload>({
    resolver: rulesResolver,
    defaultValues: rulesFormValues(template, Number(search.get('actionId')) || null),
  });
  const fieldError = useFieldError(form.formState.errors);
  const rules = useFieldArray({ control: form.control, name: 'rules' });
  const actionId = useWatch({ control: form.control, name: 'actionId' });
  const mode = useWatch({ control: form.control, name: 'mode' });
  const globalEnabled = useWatch({ control: form.control, name: 'globalRule.enabled' });

  const groups = useQuery({ queryKey: ['admin', 'groups'], queryFn: groupsApi.list });
  const zones = useQuery({ queryKey: ['admin', 'zone'], queryFn: zoneApi.list });
  const fields = useQuery({ queryKey: ['admin', 'custom-field'], queryFn: customFieldApi.list });
  const groupData = useMemo(
    () =>
      (groups.data ?? [])
        .filter((g) => g.actionId === null || String(g.actionId) === actionId)
        .map((g) => ({ value: String(g.id), label: g.name })),
    [groups.data, actionId],
  );
  const zoneData = useMemo(
    () =>
      (zones.data ?? [])
        .filter((z) => z.actionId === null || String(z.actionId) === actionId)
        .map((z) => ({ value: String(z.id), label: z.name })),
    [zones.data, actionId],
  );
  const fieldData = useMemo(
    () =>
      (fields.data ?? [])
        .filter((f) => DATE_CAPABLE_TYPES.includes(f.customFieldType.id))
        .map((f) => ({ value: String(f.id), label: f.name })),
    [fields.data],
  );
  const modeData = DEVICE_MODES.map((m) => ({ value: String(m), label: `${m} – ${t(`device.rules.modes.${m}`)}` }));

  const save = async (values: DeviceTemplatePayload) => {
    if (!template) {
      const created = await deviceApi.createTemplate(values);
      notifySuccess('device.rules.created');
      void queryClient.invalidateQueries({ queryKey: TEMPLATES_KEY });
      return { navigateTo: `/device/rules/detail/${created.id}` };
    }
    const saved = await deviceApi.updateTemplate(template.id, values);
    notifySuccess('device.rules.saved');
    queryClient.setQueryData([...TEMPLATES_KEY, template.id], saved);
    void queryClient.invalidateQueries({ queryKey: TEMPLATES_KEY, exact: true });
    return { values: rulesFormValues(saved) };
  };

  // the server names rule fields by the engine's paths (data.rules.0.groupId): put them on the form's
  const onError = (error: unknown) => {
    if (!(error instanceof ApiError) || error.fields.length === 0) return false;
    const mapped = new ApiError(
      error.code,
      error.status,
      error.message,
      error.fields.map((f) => ({ ...f, path: formPath(f.path) })),
      error.details,
    );
    applyFieldErrors(mapped, form.setError);
    notifyError('errors.VALIDATION_ERROR');
    return true;
  };

  const isZoneCheck = mode === '3';
  return (
    <>
      <FormShell form={form} readOnly={viewOnly} onSave={save} onError={onError} saveErrorKey="device.rules.saveError">
        <PageHeader title={template ? `${t('device.rules.detail')}: ${template.name}` : t('device.rules.create')} />
        <Stack gap="md">
          <Group align="flex-start" gap="md" wrap="wrap">
            <TextInput
              w={300}
              label={t('basics.name')}
              required
              {...form.register('name')}
              error={fieldError('name')}
            />
            <SelectField
              w={260}
              control={form.control}
              name="actionId"
              label={t('device.rules.action')}
              required
              data={actionData}
              searchable
              error={fieldError('actionId')}
              onChange={(value) => {
                form.setValue('actionId', value, { shouldDirty: true });
                form.setValue('zoneId', null, { shouldDirty: true });
              }}
            />
            <SelectField
              w={220}
              control={form.control}
              name="zoneId"
              label={t('device.rules.zone')}
              description={t('device.rules.zoneHint')}
              placeholder={t('basics.dash')}
              data={zoneData}
              clearable
              error={fieldError('zoneId')}
            />
            <SelectField
              w={260}
              control={form.control}
              name="mode"
              label={t('device.rules.mode')}
              required
              data={modeData}
              error={fieldError('mode')}
            />
          </Group>

          {isZoneCheck ? (
            <Alert color="blue">{t('device.rules.zoneCheckNote')}</Alert>
          ) : (
            <Paper withBorder p="md" component="section" aria-labelledby="group-rules-title">
              <Group justify="space-between" mb="sm">
                <Title order={2} size="h5" id="group-rules-title">
                  {t('device.rules.groupRules')}
                </Title>
                <Button
                  size="xs"
                  variant="light"
                  leftSection={<IconPlus size={14} />}
                  onClick={() => rules.append(emptyRule())}
                >
                  {t('device.rules.addRule')}
                </Button>
              </Group>
              {rules.fields.length === 0 && (
                <Text size="sm" c="dimmed">
                  {t('device.rules.noRules')}
                </Text>
              )}
              <Stack gap="sm">
                {rules.fields.map((field, index) => (
                  <RuleRow
                    key={field.id}
                    index={index}
                    control={form.control}
                    register={form.register}
                    fieldError={fieldError}
                    groupData={groupData}
                    fieldData={fieldData}
                    onRemove={() => rules.remove(index)}
                  />
                ))}
              </Stack>
            </Paper>
          )}

          <Paper withBorder p="md" component="section" aria-labelledby="global-rule-title">
            <Title order={2} size="h5" id="global-rule-title" mb={4}>
              {t('device.rules.globalRule')}
            </Title>
            <Text size="sm" c="dimmed" mb="sm">
              {t(isZoneCheck ? 'device.rules.globalRuleZoneCheck' : 'device.rules.globalRuleHint')}
            </Text>
            <Group gap="md" align="flex-end" wrap="wrap">
              {!isZoneCheck && (
                <BooleanField control={form.control} name="globalRule.enabled" label={t('device.rules.enabled')} />
              )}
              {!isZoneCheck && (
                <>
                  <TextInput
                    w={140}
                    type="number"
                    min={0}
                    label={t('device.rules.entrances')}
                    description={t('device.rules.entrancesHint')}
                    disabled={!globalEnabled}
                    {...form.register('globalRule.entrances')}
                    error={fieldError('globalRule.entrances')}
                  />
                  <BooleanField
                    control={form.control}
                    name="globalRule.daily"
                    label={t('device.rules.daily')}
                    disabled={!globalEnabled}
                  />
                  <TextInput
                    w={120}
                    type="number"
                    min={0}
                    label={t('device.rules.level')}
                    disabled={!globalEnabled}
                    {...form.register('globalRule.levelId')}
                    error={fieldError('globalRule.levelId')}
                  />
                </>
              )}
              <BooleanField
                control={form.control}
                name="globalRule.info"
                label={t('device.rules.info')}
                disabled={!isZoneCheck && !globalEnabled}
              />
            </Group>
          </Paper>
        </Stack>
      </FormShell>
      <Divider my="lg" />
      <RuleSimulator form={form} templateId={template?.id ?? null} />
    </>
  );
}

function RuleRow({
  index,
  control,
  register,
  fieldError,
  groupData,
  fieldData,
  onRemove,
}: {
  index: number;
  control: Control<RulesFormValues, unknown, DeviceTemplatePayload>;
  register: ReturnType<typeof useForm<RulesFormValues, unknown, DeviceTemplatePayload>>['register'];
  fieldError: (name: string) => string | undefined;
  groupData: { value: string; label: string }[];
  fieldData: { value: string; label: string }[];
  onRemove: () => void;
}) {
  const { t } = useTranslation();
  const custom = useFieldArray({ control, name: `rules.${index}.customRule` });
  const checkData = (['gte', 'lte', 'eq'] as const).map((c) => ({ value: c, label: t(`device.rules.check.${c}`) }));
  return (
    <Paper
      withBorder
      p="sm"
      radius="sm"
      aria-label={t('device.rules.ruleNumber', { n: index + 1 })}
      component="fieldset"
    >
      <Group gap="md" align="flex-end" wrap="wrap">
        <SelectField
          w={220}
          control={control}
          name={`rules.${index}.groupId`}
          label={t('device.rules.group')}
          data={groupData}
          searchable
          clearable
          error={fieldError(`rules.${index}.groupId`)}
        />
        <TextInput
          w={140}
          type="number"
          min={0}
          label={t('device.rules.entrances')}
          description={t('device.rules.entrancesHint')}
          {...register(`rules.${index}.entrances`)}
          error={fieldError(`rules.${index}.entrances`)}
        />
        <BooleanField control={control} name={`rules.${index}.daily`} label={t('device.rules.daily')} />
        <TextInput
          w={120}
          type="number"
          min={0}
          label={t('device.rules.level')}
          {...register(`rules.${index}.levelId`)}
          error={fieldError(`rules.${index}.levelId`)}
        />
        <BooleanField control={control} name={`rules.${index}.info`} label={t('device.rules.info')} />
        <ActionIcon
          variant="subtle"
          color="red"
          onClick={onRemove}
          aria-label={t('device.rules.removeRule', { n: index + 1 })}
        >
          <IconTrash size={16} />
        </ActionIcon>
      </Group>
      {custom.fields.length > 0 && (
        <Table mt="sm" withTableBorder={false} aria-label={t('device.rules.customRules')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('device.rules.customField')}</Table.Th>
              <Table.Th>{t('device.rules.checkLabel')}</Table.Th>
              <Table.Th>{t('device.rules.entrances')}</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {custom.fields.map((c, k) => (
              <Table.Tr key={c.id}>
                <Table.Td>
                  <SelectField
                    control={control}
                    name={`rules.${index}.customRule.${k}.customField`}
                    aria-label={t('device.rules.customField')}
                    data={fieldData}
                    searchable
                    error={fieldError(`rules.${index}.customRule.${k}.customField`)}
                  />
                </Table.Td>
                <Table.Td>
                  <Controller
                    control={control}
                    name={`rules.${index}.customRule.${k}.check`}
                    render={({ field }) => (
                      <Select
                        aria-label={t('device.rules.checkLabel')}
                        data={checkData}
                        value={field.value}
                        onChange={(v) => field.onChange(v ?? 'gte')}
                        allowDeselect={false}
                        error={fieldError(`rules.${index}.customRule.${k}.check`)}
                      />
                    )}
                  />
                </Table.Td>
                <Table.Td>
                  <TextInput
                    type="number"
                    min={0}
                    aria-label={t('device.rules.entrances')}
                    {...register(`rules.${index}.customRule.${k}.entrances`)}
                    error={fieldError(`rules.${index}.customRule.${k}.entrances`)}
                  />
                </Table.Td>
                <Table.Td>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    onClick={() => custom.remove(k)}
                    aria-label={t('device.rules.removeCustomRule')}
                  >
                    <IconTrash size={16} />
                  </ActionIcon>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {custom.fields.length > 0 && (
        <Text size="xs" mt={4}>
          {t(fieldData.length > 0 ? 'device.rules.customDateFormat' : 'device.rules.noDateFields')}
        </Text>
      )}
      <Group mt="xs" gap="xs">
        <Button
          size="compact-xs"
          variant="subtle"
          leftSection={<IconPlus size={12} />}
          onClick={() => custom.append(emptyCustomRule())}
        >
          {t('device.rules.addCustomRule')}
        </Button>
        <Text size="xs" c="dimmed">
          {t('device.rules.customRuleHint')}
        </Text>
      </Group>
    </Paper>
  );
}
