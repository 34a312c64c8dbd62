import type { OnlineChannelData } from '@accredo/domain';
import { isLanguage } from '@accredo/i18n';
import { Alert, Anchor, Checkbox, Group, Input, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client';
import { lazyZodResolver } from '../../app/lazy-resolver';
import { onlineApi } from '../../api/online';
import { useFieldError } from '../../components/form';
import { LoadingState } from '../../components/loading-state';
import { WorkingButton } from '../../components/working-button';
import { CustomFieldInputs } from '../accreditation/detail/custom-field-input';
import { sanitizeHtml } from '../../components/sanitize-html';
import { formatDay } from '../action/format-day';
import {
  channelText,
  hasHtml,
  type OnlineFormOutput,
  type OnlineFormValues,
  onlineFieldDefs,
  onlineFormValues,
  onlinePayload,
} from './online-form-values';
import { OnlineExtensionSelects } from './online-extension-selects';
import { OnlinePhoto } from './online-photo';
import { type Registered, ThankYou } from './online-thank-you';
import { ChannelUnavailable, isAuthLost, isChannelStateError, ONLINE_KEY, OnlineCard } from './online-shared';
import { onlineGeocoder } from '../../api/geocode';
import { GeocoderProvider } from '../../components/address-input';

/** Html of the channel, made inert, or nothing. */
function ChannelHtml({ html }: { html: string }) {
  if (!hasHtml(html)) return null;
  // biome-ignore lint/security/noDangerouslySetInnerHtml: the channel's own text, sanitised
  return <div dangerouslySetInnerHTML={{ __html: sanitizeHtml(html) }} />;
}

/**
 * Loads the form's data (checking the stored sign-in first when the channel has authorization)
 * and shows the form, then the thank-you view with 'add next' (spec §4 Online flow).
 */
export function OnlineRegistration({
  channelKey,
  withAuthorization,
  onAuthLost,
  onClosed,
  onThanked,
}: {
  channelKey: string;
  withAuthorization: boolean;
  onAuthLost: (error: ApiError) => void;
  onClosed: (error: ApiError) => void;
  /** the thank-you view is shown (true) or left (false): the page's title follows */
  onThanked?: (thanked: boolean) => void;
}) {
  const queryClient = useQueryClient();
  const [done, setDoneState] = useState<Registered | null>(null);
  const setDone = (next: Registered | null) => {
    setDoneState(next);
    onThanked?.(next !== null);
  };
  const [round, setRound] = useState(0);
  const data = useQuery({
    queryKey: [...ONLINE_KEY(channelKey), 'data'],
    queryFn: async () => {
      if (withAuthorization) await onlineApi.authorize(channelKey);
      return onlineApi.data(channelKey);
    },
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  });

  const error = data.error;
  const lost = isAuthLost(error);
  const closed = isChannelStateError(error);
  // biome-ignore lint/correctness/useExhaustiveDependencies: reacts once to each failed load
  useEffect(() => {
    if (isAuthLost(error)) onAuthLost(error);
    else if (isChannelStateError(error)) onClosed(error);
  }, [error]);

  if (data.isPending || lost || closed) return <LoadingState />;
  if (data.isError) return <ChannelUnavailable error={data.error} />;

  if (done)
    return (
      <ThankYou
        data={data.data}
        registered={done}
        onNext={() => {
          setDone(null);
          setRound((n) => n + 1);
          // The sign-in is checked again: a code may be used up by now (spec §8 Online).
          if (withAuthorization) void queryClient.resetQueries({ queryKey: [...ONLINE_KEY(channelKey), 'data'] });
        }}
      />
    );
  return (
    <GeocoderProvider geocoder={onlineGeocoder(channelKey)}>
      <RegistrationForm
        key={round}
        channelKey={channelKey}
        data={data.data}
        onDone={setDone}
        onAuthLost={onAuthLost}
        onClosed={onClosed}
      />
    </GeocoderProvider>
  );
}

/** Registration failures with their own line under registerNoOk (spec §8 Online). */
const FAILURE_LINES: Record<string, string> = {
  EMAIL_NOT_VALID: 'online.enterValidEmail',
  EMAIL_EXIST: 'online.emailExists',
};

/**
 * The registration form (spec §2, §5 Online registration) in one column on phones, two on wider screens: the channel's
 * text, first name, last name and e-mail (with the channel's labels), the user fields shown, a
 * group or days when offered, the photo, and the checking attributes to confirm.
 */
function RegistrationForm({
  channelKey,
  data,
  onDone,
  onAuthLost,
  onClosed,
}: {
  channelKey: string;
  data: OnlineChannelData;
  onDone: (registered: Registered) => void;
  onAuthLost: (error: ApiError) => void;
  onClosed: (error: ApiError) => void;
}) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const fields = useMemo(() => onlineFieldDefs(data.customField, language), [data.customField, language]);
  // zod and the schema come with the first validation, not with the page (issue 15)
  const resolver = useMemo(
    () =>
      lazyZodResolver<OnlineFormValues, OnlineFormOutput>(async () =>
        (await import('./online-form-schema')).onlineFormSchema(data, fields),
      ),
    [data, fields],
  );
  const form = useForm<OnlineFormValues, unknown, OnlineFormOutput>({
    resolver,
    defaultValues: onlineFormValues(data, fields),
  });
  const fieldError = useFieldError(form.formState.errors);
  const queryClient = useQueryClient();
  const [failure, setFailure] = useState<string[] | null>(null);
  const label = (custom: Parameters<typeof channelText>[0], fallback: string) =>
    channelText(custom, language) || t(fallback);

  const submit = form.handleSubmit(
    async (values) => {
      setFailure(null);
      try {
        const result = await onlineApi.register(
          channelKey,
          onlinePayload(values, fields, isLanguage(language) ? language : 'cs'),
        );
        onDone({ result, values });
      } catch (error) {
        if (isAuthLost(error)) return onAuthLost(error);
        if (isChannelStateError(error)) return onClosed(error);
        const lines = ['online.registerNoOk'];
        if (error instanceof ApiError) {
          if (FAILURE_LINES[error.code]) {
            lines.push(FAILURE_LINES[error.code]);
            form.setError('email', { type: 'server', message: FAILURE_LINES[error.code] }, { shouldFocus: true });
          }
          // The last place went to someone else meanwhile (spec §8: capacity full is reported to the person).
          if (error.code === 'EXTENSION_CAPACITY_FULL') {
            lines.push('actionExtension.capacityFull');
            // Reload the offer, so what is full now shows as full.
            void queryClient.invalidateQueries({ queryKey: [...ONLINE_KEY(channelKey), 'data'] });
          }
          for (const field of error.fields) form.setError(field.path as never, { type: 'server', message: field.key });
        }
        setFailure(lines);
      }
    },
    () => setFailure(null),
  );

  const text = channelText(data.textOnline, language);
  const groupData = data.groups.map((g) => ({
    value: String(g.id),
    label: channelText(g.displayName, language) || g.name,
  }));

  return (
    <OnlineCard>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <Stack gap="lg">
          <ChannelHtml html={text} />
          {/* One column on phones, two on wider screens; the grid fills row by row, so the fields
              read in DOM order, and tall blocks (days, photo) take a whole row instead of leaving gaps. */}
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="sm" className="online-fields">
            <TextInput
              label={label(data.customNameFirstname, 'online.firstname')}
              required
              autoComplete="given-name"
              {...form.register('firstname')}
              error={fieldError('firstname')}
            />
            <TextInput
              label={label(data.customNameLastname, 'online.lastname')}
              required
              autoComplete="family-name"
              {...form.register('lastname')}
              error={fieldError('lastname')}
            />
            <TextInput
              label={label(data.customNameEmail, 'online.email')}
              type="email"
              required
              autoComplete="email"
              {...form.register('email')}
              error={fieldError('email')}
            />
            <CustomFieldInputs fields={fields} form={form} error={fieldError} />
            {data.viewGroups && (
              <Controller
                control={form.control}
                name="groups"
                render={({ field }) => (
                  <Select
                    label={label(data.groupsSelectName, 'online.group')}
                    required
                    data={groupData}
                    value={field.value[0] ?? null}
                    onChange={(value) => field.onChange(value ? [value] : [])}
                    onBlur={field.onBlur}
                    ref={field.ref}
                    error={fieldError('groups')}
                  />
                )}
              />
            )}
            {data.viewDays && data.days.length > 0 && (
              <Controller
                control={form.control}
                name="days"
                render={({ field }) => (
                  <Checkbox.Group
                    className="online-wide"
                    label={label(data.daysSelectName, 'online.days')}
                    value={field.value}
                    onChange={field.onChange}
                    error={fieldError('days')}
                  >
                    <Stack gap={6} mt={6}>
                      {data.days.map((day) => (
                        <Checkbox
                          key={day.id}
                          value={day.id}
                          label={channelText(day.name, language) || formatDay(day.id, language)}
                        />
                      ))}
                    </Stack>
                  </Checkbox.Group>
                )}
              />
            )}
            {data.withPhoto && (
              <Controller
                control={form.control}
                name="image"
                render={({ field }) => (
                  <OnlinePhoto
                    className="online-wide"
                    value={field.value}
                    required={data.requirePhoto}
                    error={fieldError('image')}
                    onChange={(value) => {
                      field.onChange(value);
                      form.clearErrors('image');
                    }}
                    onFileError={(key) => form.setError('image', { type: 'manual', message: key })}
                  />
                )}
              />
            )}
          </SimpleGrid>
          <OnlineExtensionSelects data={data} control={form.control} />
          {data.checkingAttributes.length > 0 && (
            <Input.Wrapper label={t('online.confirmations')}>
              <Stack gap="xs" mt={6}>
                {data.checkingAttributes.map((attribute) => {
                  const text = channelText(attribute.label, language);
                  return (
                    <Controller
                      key={attribute.id}
                      control={form.control}
                      name={`checkingAttributes.${attribute.id}`}
                      render={({ field }) => (
                        <Checkbox
                          label={
                            attribute.url ? (
                              <Anchor href={attribute.url} target="_blank" rel="noopener noreferrer">
                                {text}
                              </Anchor>
                            ) : (
                              text
                            )
                          }
                          aria-label={text}
                          required={attribute.required}
                          checked={field.value === true}
                          onChange={(event) => field.onChange(event.currentTarget.checked)}
                          onBlur={field.onBlur}
                          ref={field.ref}
                          error={fieldError(`checkingAttributes.${attribute.id}`)}
                        />
                      )}
                    />
                  );
                })}
              </Stack>
            </Input.Wrapper>
          )}
          {failure && (
            <Alert color="red" role="alert">
              {failure.map((key) => (
                <Text key={key} size="sm">
                  {t(key)}
                </Text>
              ))}
            </Alert>
          )}
          <Group>
            <WorkingButton type="submit" busy={form.formState.isSubmitting}>
              {t('online.register')}
            </WorkingButton>
          </Group>
        </Stack>
      </form>
    </OnlineCard>
  );
}
