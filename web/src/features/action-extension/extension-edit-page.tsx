import {
  EXTENSION_MEAL,
  EXTENSION_ROUTE,
  type ExtensionData,
  type ExtensionItemsInput,
  type ExtensionType,
  extensionItemsSchema,
} from '@accredo/domain';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  ActionIcon,
  Alert,
  Button,
  Checkbox,
  Fieldset,
  Group,
  Modal,
  SimpleGrid,
  Stack,
  Switch,
  Tabs,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { IconCopy, IconPlus, IconTrash } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { type FieldErrors, type Resolver, type UseFormReturn, useFieldArray, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { localized } from '../../api/action';
import { extensionApi } from '../../api/action-extension';
import { ApiError } from '../../api/client';
import { notifyError, notifySuccess } from '../../app/notify';
import { applyFieldErrors, ErrorTab, FormShell, useFieldError, useReadOnly } from '../../components/form';
import { LoadingState } from '../../components/loading-state';
import { PageHeader } from '../../components/page-header';
import { useViewOnly } from '../../components/require-right';
import { useDetailQuery } from '../../components/use-detail-query';
import { formatDay } from '../action/date-tab';
import {
  copyFormItems,
  type ExtensionFormValues,
  emptyItem,
  emptyOption,
  extensionFormValues,
  extensionTabs,
  formToInput,
  tabKey,
  tabOfItem,
  tabValue,
} from './edit-form-values';
import { EXTENSION_SLUGS, type ExtensionSlug, extensionErrorKey, extensionKey, useEditLanguages } from './shared';
import { FormDateField } from '../../components/date-fields';

type Form = UseFormReturn<ExtensionFormValues, unknown, ExtensionItemsInput>;

/**
 * The shared schema of the items (spec §5 rules against the action's dates) on the form's values;
 * a parking area's places are held as `options` in the form, so their errors are moved there.
 */
function itemsResolver(
  type: ExtensionType,
  data: ExtensionData,
): Resolver<ExtensionFormValues, unknown, ExtensionItemsInput> {
  const schema = extensionItemsSchema(type, data.action);
  const resolve = zodResolver(schema) as unknown as Resolver<Record<string, unknown>, unknown, ExtensionItemsInput>;
  return async (values, context, options) => {
    const result = await resolve(formToInput(type, values) as never, context, options as never);
    const items = (result.errors as { items?: Record<string, unknown> } | undefined)?.items;
    if (items && type !== EXTENSION_MEAL)
      for (const error of Object.values(items))
        if (error && typeof error === 'object' && 'places' in error) {
          const node = error as Record<string, unknown>;
          node.options = node.places;
          delete node.places;
        }
    return result as never;
  };
}

/** `/action-extension/{meal|parking}/detail/{actionId}` (spec §2 Action extension edit). */
export function ExtensionEditPage({ slug }: { slug: ExtensionSlug }) {
  const type: ExtensionType = EXTENSION_SLUGS[slug];
  const actionId = Number(useParams().actionId);
  const query = useDetailQuery({
    queryKey: extensionKey(type, actionId),
    queryFn: () => extensionApi.get(type, actionId),
    listPath: `/action-extension/${EXTENSION_ROUTE[type]}`,
    errorKey: 'extension.loadError',
  });
  if (!query.data) return <LoadingState />;
  return <ExtensionEditForm key={actionId} type={type} data={query.data} />;
}

/** The tab keys whose items have errors ('' is 'For whole event'). */
function tabsWithErrors(errors: FieldErrors<ExtensionFormValues>, values: ExtensionFormValues, tabs: string[]) {
  const result = new Set<string>();
  const items = errors.items as unknown as Record<string, unknown> | undefined;
  if (!items) return result;
  for (const key of Object.keys(items)) {
    const index = Number(key);
    if (Number.isInteger(index) && values.items[index]) result.add(tabOfItem(tabs, values.items[index].date));
  }
  return result;
}

function ExtensionEditForm({ type, data }: { type: ExtensionType; data: ExtensionData }) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const viewOnly = useViewOnly('actionExtension', true);
  const resolver = useMemo(() => itemsResolver(type, data), [type, data]);
  const form: Form = useForm<ExtensionFormValues, unknown, ExtensionItemsInput>({
    resolver,
    defaultValues: extensionFormValues(data),
  });
  const tabs = useMemo(() => extensionTabs(type, data), [type, data]);
  const [tab, setTab] = useState<string>(tabs[0]);
  const values = useWatch({ control: form.control }) as ExtensionFormValues;
  const errorTabs = tabsWithErrors(form.formState.errors, form.getValues(), tabs);
  const meal = type === EXTENSION_MEAL;

  const tabLabel = (day: string) => {
    if (!day) return t('extension.wholeEvent');
    const name = data.action.dayNames?.[day];
    return localized(name, i18n.language) || formatDay(day, i18n.language);
  };

  const save = async (input: ExtensionItemsInput) => {
    const saved = await extensionApi.save(type, data.actionId, input);
    notifySuccess('actionExtension.saved');
    queryClient.setQueryData(extensionKey(type, data.actionId), saved);
    return { values: extensionFormValues(saved) };
  };

  const itemsError = form.formState.errors.items as { message?: string; root?: { message?: string } } | undefined;
  const listError = itemsError?.root?.message ?? itemsError?.message;

  return (
    <FormShell
      form={form}
      readOnly={viewOnly}
      onSave={save}
      saveErrorKey="actionExtension.saveError"
      wrapFields={false}
      onError={(error) => {
        // A parking area's places are `options` in the form: the server's paths are moved there.
        if (!meal && error instanceof ApiError && error.fields.length > 0) {
          applyFieldErrors(
            new ApiError(
              error.code,
              error.status,
              error.message,
              error.fields.map((f) => ({ ...f, path: f.path.replace(/\.places\./, '.options.') })),
            ),
            form.setError,
          );
          notifyError('errors.VALIDATION_ERROR');
          return true;
        }
        const key = extensionErrorKey(error, '');
        if (!key) return false;
        notifyError(key);
        return true;
      }}
    >
      <PageHeader
        title={`${t(meal ? 'extension.meal.title' : 'extension.parking.title')}: ${localized(data.action.name, i18n.language)}`}
      />
      {!data.active && (
        <Alert color="yellow" mb="md">
          {t('extension.notActive')}
        </Alert>
      )}
      {listError && (
        <Alert color="red" mb="md" role="alert">
          {t(listError)}
        </Alert>
      )}
      <Tabs value={tabValue(tab)} onChange={(v) => setTab(tabKey(v, tabs))} keepMounted={false}>
        <Tabs.List mb="md" aria-label={t('extension.days')}>
          {tabs.map((day) => (
            <ErrorTab
              key={day || 'whole'}
              value={tabValue(day)}
              label={tabLabel(day)}
              hasErrors={errorTabs.has(day)}
              errorLabel={t('extension.tabHasErrors')}
            />
          ))}
        </Tabs.List>
        {tabs.map((day) => (
          <Tabs.Panel key={day || 'whole'} value={tabValue(day)}>
            <DayItems
              form={form}
              type={type}
              tabs={tabs}
              day={day}
              values={values}
              defaultDate={day || (meal ? (data.action.dateFrom?.slice(0, 10) ?? '') : '')}
              tabLabel={tabLabel}
            />
          </Tabs.Panel>
        ))}
      </Tabs>
    </FormShell>
  );
}

/** The items of one tab in the 4-column grid (spec §9), with add and 'copy to other days'. */
function DayItems({
  form,
  type,
  tabs,
  day,
  values,
  defaultDate,
  tabLabel,
}: {
  form: Form;
  type: ExtensionType;
  tabs: string[];
  day: string;
  values: ExtensionFormValues;
  defaultDate: string;
  tabLabel: (day: string) => string;
}) {
  const { t } = useTranslation();
  const readOnly = useReadOnly();
  const items = useFieldArray({ control: form.control, name: 'items' });
  const [copying, setCopying] = useState(false);
  const meal = type === EXTENSION_MEAL;
  const shown = items.fields
    .map((field, index) => ({ field, index }))
    .filter(({ index }) => tabOfItem(tabs, values.items?.[index]?.date ?? '') === day);
  const otherDays = tabs.filter((d) => d && d !== day);

  return (
    <Stack gap="md">
      {!readOnly && (
        <Group>
          <Button
            variant="light"
            leftSection={<IconPlus size={16} />}
            onClick={() => items.append(emptyItem(defaultDate))}
          >
            {t(meal ? 'extension.meal.addItem' : 'extension.parking.addItem')}
          </Button>
          {otherDays.length > 0 && (
            <Button
              variant="default"
              leftSection={<IconCopy size={16} />}
              disabled={shown.length === 0}
              onClick={() => setCopying(true)}
            >
              {t('extension.copy.button')}
            </Button>
          )}
        </Group>
      )}
      {shown.length === 0 ? (
        <Text c="dimmed" size="sm">
          {t('extension.noItems')}
        </Text>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="md">
          {shown.map(({ field, index }, position) => (
            <ItemCard
              key={field.id}
              form={form}
              type={type}
              index={index}
              number={position + 1}
              showDate={meal && (tabs.length === 1 || values.items?.[index]?.date !== day)}
              onRemove={() => items.remove(index)}
            />
          ))}
        </SimpleGrid>
      )}
      <CopyModal
        opened={copying}
        from={tabLabel(day)}
        days={otherDays.map((d) => ({ value: d, label: tabLabel(d) }))}
        onClose={() => setCopying(false)}
        onCopy={(toDays, replace) => {
          items.replace(copyFormItems(form.getValues('items'), day, toDays, replace));
          setCopying(false);
        }}
      />
    </Stack>
  );
}

/** Copy the open day's items to chosen days (spec §4); the copies are saved with the form. */
function CopyModal({
  opened,
  from,
  days,
  onClose,
  onCopy,
}: {
  opened: boolean;
  from: string;
  days: { value: string; label: string }[];
  onClose: () => void;
  onCopy: (toDays: string[], replace: boolean) => void;
}) {
  const { t } = useTranslation();
  const [chosen, setChosen] = useState<string[]>([]);
  const [replace, setReplace] = useState(false);
  return (
    <Modal opened={opened} onClose={onClose} title={t('extension.copy.title', { day: from })}>
      <Stack>
        <Checkbox.Group label={t('extension.copy.toDays')} value={chosen} onChange={setChosen}>
          <Stack gap={6} mt={6}>
            {days.map((d) => (
              <Checkbox key={d.value} value={d.value} label={d.label} />
            ))}
          </Stack>
        </Checkbox.Group>
        <Switch
          label={t('extension.copy.replace')}
          checked={replace}
          onChange={(e) => setReplace(e.currentTarget.checked)}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('basics.cancel')}
          </Button>
          <Button disabled={chosen.length === 0} onClick={() => onCopy(chosen, replace)}>
            {t('extension.copy.confirm')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** One meal time slot or parking area: labels, date and times (meals), capacity, active, options. */
function ItemCard({
  form,
  type,
  index,
  number,
  showDate,
  onRemove,
}: {
  form: Form;
  type: ExtensionType;
  index: number;
  number: number;
  showDate: boolean;
  onRemove: () => void;
}) {
  const { t } = useTranslation();
  const readOnly = useReadOnly();
  const languages = useEditLanguages();
  const fieldError = useFieldError(form.formState.errors);
  const meal = type === EXTENSION_MEAL;
  const name = `items.${index}` as const;
  const title = t(meal ? 'extension.meal.item' : 'extension.parking.item', { number });
  const langLabel = (label: string, lang: string) => (languages.length > 1 ? `${label} (${t(`lang.${lang}`)})` : label);
  const options = useFieldArray({ control: form.control, name: `${name}.options` });
  const active = useWatch({ control: form.control, name: `${name}.active` });

  return (
    <Fieldset legend={title} disabled={readOnly} aria-label={title} variant="filled">
      <Stack gap="xs">
        {languages.map((lang) => (
          <TextInput
            key={lang}
            label={langLabel(t('extension.label'), lang)}
            lang={lang}
            required={lang === 'cs'}
            {...form.register(`${name}.label.${lang}`)}
            error={fieldError(`${name}.label.${lang}`)}
          />
        ))}
        {meal && showDate && (
          <FormDateField
            control={form.control}
            name={`${name}.date`}
            label={t('extension.date')}
            required
            error={fieldError(`${name}.date`)}
          />
        )}
        {!meal && fieldError(`${name}.date`) && (
          <Text c="red" size="xs" role="alert">
            {fieldError(`${name}.date`)}
          </Text>
        )}
        {meal && (
          <Group grow gap="xs" align="flex-start">
            <TextInput
              label={t('extension.timeFrom')}
              placeholder="HH:mm"
              required
              {...form.register(`${name}.timeFrom`)}
              error={fieldError(`${name}.timeFrom`)}
            />
            <TextInput
              label={t('extension.timeTo')}
              placeholder="HH:mm"
              required
              {...form.register(`${name}.timeTo`)}
              error={fieldError(`${name}.timeTo`)}
            />
          </Group>
        )}
        <TextInput
          label={t('extension.capacity')}
          description={t('extension.capacityHint')}
          inputMode="numeric"
          {...form.register(`${name}.capacity`)}
          error={fieldError(`${name}.capacity`)}
        />
        <Switch
          label={t('extension.itemActive')}
          checked={Boolean(active)}
          onChange={(e) => form.setValue(`${name}.active`, e.currentTarget.checked, { shouldDirty: true })}
        />
        <Text fw={600} size="sm" mt="xs">
          {t(meal ? 'extension.meal.options' : 'extension.parking.places')}
        </Text>
        {options.fields.map((option, o) => {
          const optionTitle = t(meal ? 'extension.meal.option' : 'extension.parking.place', { number: o + 1 });
          const path = `${name}.options.${o}` as const;
          return (
            <Fieldset key={option.id} legend={optionTitle} aria-label={`${title} – ${optionTitle}`} p="xs">
              <Stack gap={6}>
                {languages.map((lang) => (
                  <TextInput
                    key={lang}
                    size="xs"
                    label={langLabel(t('extension.optionName'), lang)}
                    lang={lang}
                    required={lang === 'cs'}
                    {...form.register(`${path}.name.${lang}`)}
                    error={fieldError(`${path}.name.${lang}`)}
                  />
                ))}
                {meal && (
                  <TextInput
                    size="xs"
                    label={t('extension.note')}
                    {...form.register(`${path}.note`)}
                    error={fieldError(`${path}.note`)}
                  />
                )}
                <Group gap="xs" align="flex-end" wrap="nowrap">
                  <TextInput
                    size="xs"
                    style={{ flex: 1 }}
                    label={t('extension.capacity')}
                    inputMode="numeric"
                    {...form.register(`${path}.capacity`)}
                    error={fieldError(`${path}.capacity`)}
                  />
                  {!readOnly && (
                    <Tooltip label={t('extension.removeOption')}>
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={`${t('extension.removeOption')}: ${optionTitle}`}
                        onClick={() => options.remove(o)}
                      >
                        <IconTrash size={16} />
                      </ActionIcon>
                    </Tooltip>
                  )}
                </Group>
              </Stack>
            </Fieldset>
          );
        })}
        {!readOnly && (
          <Group justify="space-between">
            <Button
              size="xs"
              variant="subtle"
              leftSection={<IconPlus size={14} />}
              onClick={() => options.append(emptyOption())}
            >
              {t(meal ? 'extension.meal.addOption' : 'extension.parking.addPlace')}
            </Button>
            <Button
              size="xs"
              variant="subtle"
              color="red"
              leftSection={<IconTrash size={14} />}
              onClick={onRemove}
              aria-label={`${t('extension.removeItem')}: ${title}`}
            >
              {t('extension.removeItem')}
            </Button>
          </Group>
        )}
      </Stack>
    </Fieldset>
  );
}
