import { hasRight, type Language, subjectLanguages } from '@accredo/domain';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Checkbox, Group, Select, SimpleGrid, Stack, Tabs, TextInput, Title } from '@mantine/core';
import { IconExternalLink } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Controller, type Resolver, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { type ActionDto, actionApi, localized } from '../../../api/action';
import {
  ACCREDITATION_KEY,
  type AccreditationDto,
  accreditationApi,
  accreditationByBcKey,
  accreditationKey,
} from '../../../api/accreditation';
import { ApiError, isApiError } from '../../../api/client';
import { CUSTOM_FIELD_LIST_KEY, customFieldApi } from '../../../api/custom-field';
import { adminGeocoder } from '../../../api/geocode';
import { groupsApi } from '../../../api/groups';
import { withoutArchived } from '@accredo/domain';
import { zoneApi } from '../../../api/zone';
import { useAdminSession } from '../../../app/admin-session';
import { notifyError, notifySuccess } from '../../../app/notify';
import { GeocoderProvider } from '../../../components/address-input';
import {
  FormShell,
  type SaveResult,
  useFieldError,
  ReadOnlyProvider,
  MultiSelectField,
} from '../../../components/form';
import { LoadingState } from '../../../components/loading-state';
import { PageHeader } from '../../../components/page-header';
import { CreditTab } from './credit-tab';
import { CustomFieldInputs } from './custom-field-input';
import {
  ADDRESS_INVALID,
  type AccreditationFormValues,
  accreditationFormValues,
  accreditationPayload,
  type FieldDef,
  fieldDefs,
  PHONE_INVALID,
} from './form-values';
import { type AccreditationFormOutput, accreditationFormSchema } from './form-schema';
import { previewPath } from '../../preview/preview-api';
import { PhotoField } from './photo-field';

export type AccreditationFormMode = 'create' | 'detail' | 'check';

/** Server message keys shown under this screen's own wording (spec §8 Accreditation save). */
const SERVER_KEYS: Record<string, string> = {
  'basics.phoneInvalid': PHONE_INVALID,
  'accreditation.addressInvalid': ADDRESS_INVALID,
};

/** Moves the server's field errors onto this form's inputs, with message keys it can show. */
function mapServerError(error: unknown): unknown {
  if (!(error instanceof ApiError) || error.fields.length === 0) return error;
  return new ApiError(
    error.code,
    error.status,
    error.message,
    error.fields.map((f) => ({ path: f.path, key: SERVER_KEYS[f.key] ?? f.key })),
  );
}

const ACTION_KEY = (id: number) => ['admin', 'action', id] as const;

/**
 * The accreditation screen of an action (spec §2 /accreditation/create, /detail/{id}, /check/{bc}):
 * loads the action (user fields, days), the user-field definitions, the action's groups and zones.
 */
export function AccreditationEditor({
  actionId,
  accreditation,
  mode,
}: {
  actionId: number;
  accreditation?: AccreditationDto;
  mode: AccreditationFormMode;
}) {
  const { t } = useTranslation();
  const action = useQuery({ queryKey: ACTION_KEY(actionId), queryFn: () => actionApi.get(actionId) });
  const definitions = useQuery({ queryKey: CUSTOM_FIELD_LIST_KEY, queryFn: customFieldApi.list });
  if (action.isError)
    return (
      <Alert color="red" role="alert">
        {t('accreditationDetail.actionLoadError')}
      </Alert>
    );
  if (!action.data || definitions.isPending) return <LoadingState />;
  return (
    <GeocoderProvider geocoder={adminGeocoder}>
      <AccreditationForm
        key={accreditation ? `${accreditation.id}` : 'create'}
        action={action.data}
        definitions={definitions.data ?? []}
        accreditation={accreditation}
        mode={mode}
      />
    </GeocoderProvider>
  );
}

function AccreditationForm({
  action,
  definitions,
  accreditation,
  mode,
}: {
  action: ActionDto;
  definitions: Awaited<ReturnType<typeof customFieldApi.list>>;
  accreditation?: AccreditationDto;
  mode: AccreditationFormMode;
}) {
  const { t, i18n } = useTranslation();
  const session = useAdminSession();
  const queryClient = useQueryClient();
  const language = i18n.language;
  const fields: FieldDef[] = useMemo(
    () => fieldDefs(action.customField ?? [], definitions, language),
    [action.customField, definitions, language],
  );
  const schema = useMemo(() => accreditationFormSchema(fields), [fields]);
  const form = useForm<AccreditationFormValues, unknown, AccreditationFormOutput>({
    resolver: zodResolver(schema) as unknown as Resolver<AccreditationFormValues, unknown, AccreditationFormOutput>,
    defaultValues: accreditationFormValues(action.id, fields, accreditation),
  });
  const fieldError = useFieldError(form.formState.errors);

  const groups = useQuery({ queryKey: ['admin', 'groups'], queryFn: groupsApi.list });
  const zones = useQuery({ queryKey: ['admin', 'zone'], queryFn: zoneApi.list });
  // an archived group is offered only to whoever holds it already (issue 15)
  const groupData = withoutArchived(
    (groups.data ?? []).filter((g) => g.actionId === action.id),
    accreditation?.groupIds ?? [],
  ).map((g) => ({ value: g.id, label: g.name }));
  const zoneData = (zones.data ?? [])
    .filter((z) => z.actionId === action.id)
    .map((z) => ({ value: z.id, label: z.name }));

  const isCreate = !accreditation;
  // spec §6: without updateUser an existing person is shown, not offered for change
  const viewOnly = !isCreate && !hasRight(session, 'user', 'updateUser');
  const showCredit =
    !isCreate && action.isCredit && hasRight(session, 'userCreditTransaction', 'getUserCreditTransaction');

  const save = async (values: AccreditationFormOutput): Promise<SaveResult<AccreditationFormValues>> => {
    const body = accreditationPayload(values, fields);
    let saved: AccreditationDto;
    try {
      saved = accreditation
        ? await accreditationApi.update(accreditation.id, body)
        : await accreditationApi.create(body);
    } catch (error) {
      throw mapServerError(error);
    }
    void queryClient.invalidateQueries({ queryKey: ACCREDITATION_KEY });
    queryClient.setQueryData(accreditationKey(saved.actionId, saved.id), saved);
    if (!accreditation) {
      notifySuccess('accreditationDetail.created');
      return { navigateTo: `/accreditation/detail/${saved.id}` };
    }
    queryClient.setQueryData(accreditationByBcKey(saved.bc), saved);
    notifySuccess('accreditationDetail.saved');
    return { values: accreditationFormValues(action.id, fields, saved) };
  };

  const onError = (error: unknown) => {
    if (isApiError(error, 'EMAIL_EXIST')) {
      form.setError('email', { type: 'server', message: 'accreditationDetail.emailExists' }, { shouldFocus: true });
      notifyError('accreditationDetail.emailExists');
      return true;
    }
    if (isApiError(error, 'EMAIL_NOT_VALID')) {
      form.setError('email', { type: 'server', message: 'basics.emailNotValid' }, { shouldFocus: true });
      notifyError(isCreate ? 'accreditationDetail.createError' : 'accreditationDetail.editError');
      return true;
    }
    return false;
  };

  const days = action.multiDay ? (action.days ?? []) : [];
  const basic = (
    <Stack gap="sm" maw={720}>
      {accreditation && (
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput label={t('accreditationDetail.customId')} value={String(accreditation.customId ?? '')} readOnly />
          <TextInput
            label={t('accreditationDetail.bc')}
            value={accreditation.bc}
            readOnly
            // after a reprint that retired the old badge: the code the valid badge carries
            description={
              accreditation.badgeVersion
                ? t('accreditationDetail.badgeValid', {
                    code: accreditation.badgeCode ?? accreditation.bc,
                    version: accreditation.badgeVersion,
                    date: accreditation.badgeReplacedAt
                      ? new Date(accreditation.badgeReplacedAt).toLocaleString(i18n.language)
                      : '',
                  })
                : undefined
            }
          />
        </SimpleGrid>
      )}
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput
          label={t('accreditationDetail.firstname')}
          required
          autoComplete="off"
          {...form.register('firstname')}
          error={fieldError('firstname')}
        />
        <TextInput
          label={t('accreditationDetail.lastname')}
          required
          autoComplete="off"
          {...form.register('lastname')}
          error={fieldError('lastname')}
        />
      </SimpleGrid>
      <TextInput
        label={t('accreditationDetail.email')}
        type="email"
        required
        autoComplete="off"
        {...form.register('email')}
        error={fieldError('email')}
      />
      {/* the language every mail to the person is written in: one of the subject's (issue 15) */}
      <Controller
        control={form.control}
        name="language"
        render={({ field }) => (
          <Select
            label={t('accreditationDetail.language')}
            description={t('accreditationDetail.languageHint')}
            data={subjectLanguages(session.subject.multiLanguage).map((lang) => ({
              value: lang,
              label: t(`lang.${lang}`),
            }))}
            allowDeselect={false}
            value={field.value}
            onChange={(value) => field.onChange((value ?? 'cs') as Language)}
            onBlur={field.onBlur}
            ref={field.ref}
            error={fieldError('language')}
            maw={320}
          />
        )}
      />
      <CustomFieldInputs fields={fields} form={form} error={fieldError} />
      <MultiSelectField<AccreditationFormValues, AccreditationFormOutput, number>
        control={form.control}
        name="groupIds"
        label={t('accreditationDetail.groups')}
        data={groupData}
        searchable
        clearable
        placeholder={groups.isPending ? t('basics.loading') : undefined}
        error={fieldError('groupIds') ?? (groups.isError ? t('accreditationDetail.groupsLoadError') : undefined)}
      />
      <MultiSelectField<AccreditationFormValues, AccreditationFormOutput, number>
        control={form.control}
        name="zones"
        label={t('accreditationDetail.zones')}
        data={zoneData}
        searchable
        clearable
        placeholder={zones.isPending ? t('basics.loading') : undefined}
        error={fieldError('zones') ?? (zones.isError ? t('accreditationDetail.zonesLoadError') : undefined)}
      />
      {days.length > 0 && (
        <Controller
          control={form.control}
          name="days"
          render={({ field }) => (
            <Checkbox.Group
              label={t('accreditationDetail.days')}
              value={field.value}
              onChange={field.onChange}
              error={fieldError('days')}
            >
              <Group gap="md" mt={4}>
                {days.map((day) => (
                  <Checkbox key={day.id} value={day.id} label={localized(day.name, language) || day.id} />
                ))}
              </Group>
            </Checkbox.Group>
          )}
        />
      )}
      <PhotoField
        value={{ imageId: form.watch('imageId'), imageData: form.watch('imageData') }}
        onChange={(value) => {
          form.setValue('imageId', value.imageId, { shouldDirty: true });
          form.setValue('imageData', value.imageData, { shouldDirty: true });
        }}
        current={accreditation?.image ?? null}
        error={fieldError('imageData')}
        onFileError={(key) =>
          key ? form.setError('imageData', { type: 'manual', message: key }) : form.clearErrors('imageData')
        }
      />
    </Stack>
  );

  const title = isCreate
    ? t('accreditationDetail.create')
    : `${t('accreditationDetail.detail')}: ${accreditation.firstname} ${accreditation.lastname}`;

  return (
    <ReadOnlyProvider value={viewOnly}>
      <PageHeader title={title}>
        {/* spec §2: the person's preview page, in a new tab, only with smartBc and for holders of the right */}
        {!isCreate && action.smartBc && hasRight(session, 'user', 'goToPreview') && (
          <Button
            component="a"
            href={previewPath(session.subject.key, accreditation.badgeCode ?? accreditation.bc)}
            target="_blank"
            rel="noopener noreferrer"
            variant="default"
            leftSection={<IconExternalLink size={16} />}
          >
            {t('preview.open')}
          </Button>
        )}
      </PageHeader>
      {mode !== 'create' && (
        <Title order={2} size="h6" c="dimmed" mb="sm">
          {localized(action.name, language)}
        </Title>
      )}
      <Tabs defaultValue="basic" keepMounted>
        <Tabs.List mb="md">
          <Tabs.Tab value="basic">{t('accreditationDetail.tabBasic')}</Tabs.Tab>
          {showCredit && <Tabs.Tab value="credit">{t('accreditationDetail.tabCredit')}</Tabs.Tab>}
        </Tabs.List>
        <Tabs.Panel value="basic">
          <FormShell
            form={form}
            readOnly={viewOnly}
            onSave={save}
            onError={onError}
            saveErrorKey={isCreate ? 'accreditationDetail.createError' : 'accreditationDetail.editError'}
          >
            {basic}
          </FormShell>
        </Tabs.Panel>
        {showCredit && accreditation && (
          <Tabs.Panel value="credit">
            <CreditTab userId={accreditation.id} />
          </Tabs.Panel>
        )}
      </Tabs>
    </ReadOnlyProvider>
  );
}
