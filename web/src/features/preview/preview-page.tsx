import {
  effectiveLanguage,
  type Language,
  type OnlineExtensionItem,
  type PreviewBlock,
  type PreviewData,
  type UserExtensionItemInput,
  type UserExtensionItemView,
} from '@accredo/domain';
import {
  Accordion,
  Alert,
  Badge,
  Checkbox,
  Group,
  Image,
  NativeSelect,
  Paper,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { isApiError } from '../../api/client';
import { applyLanguage, browserLanguage, rememberedLanguage } from '../../app/i18n';
import { notifyError, notifySuccess } from '../../app/notify';
import { LoadingState } from '../../components/loading-state';
import { WorkingButton } from '../../components/working-button';
import { formatDay } from '../action/format-day';
import { sanitizeHtml } from '../../components/sanitize-html';
import { LanguageSwitcher } from '../layout/language-switcher';
import { channelText, hasHtml } from '../online/online-form-values';
import { previewApi } from './preview-api';

const PREVIEW_KEY = (subjectKey: string, code: string) => ['preview', subjectKey, code] as const;

/** The person's language among the subject's (spec §1): chosen before, else the browser's, else Czech. */
function usePreviewLanguages(data: PreviewData | undefined): Language[] {
  const languages: Language[] = data?.multiLanguage && data.languages.length > 0 ? data.languages : ['cs'];
  const key = languages.join(',');
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-applied when the subject's languages change
  useEffect(() => {
    if (!data) return;
    const wanted = effectiveLanguage(rememberedLanguage() ?? browserLanguage(languages) ?? 'cs', data.multiLanguage);
    applyLanguage(languages.includes(wanted) ? wanted : 'cs', false);
  }, [data, key]);
  return languages;
}

/** Admin-written html of a block, made inert (no scripts, frames, handlers or js: links) before it is shown. */
function BlockHtml({ html }: { html: string }) {
  if (!hasHtml(html)) return null;
  // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised by the same sanitizer as every admin html preview
  return <div className="preview-html" dangerouslySetInnerHTML={{ __html: sanitizeHtml(html) }} />;
}

/** `YYYY-MM-DDTHH:mm` as a date and time of the page's language. */
function formatDateTime(value: string, language: string) {
  return `${formatDay(value.slice(0, 10), language)} ${value.slice(11, 16)}`;
}

function itemName(item: OnlineExtensionItem, language: string) {
  const label = channelText(item.label, language);
  const slot = item.timeFrom ? ` ${item.timeFrom}–${item.timeTo}` : '';
  return item.date ? `${formatDay(item.date, language)} · ${label}${slot}` : `${label}${slot}`;
}

interface Choice {
  have: boolean;
  option: number | null;
  licencePlate: string;
}

const NO_CHOICE: Choice = { have: false, option: null, licencePlate: '' };

/**
 * A meal or parking section: the person's items, and with self-selection open a choice per offered
 * item (full ones disabled, a used meal locked) saved as the whole list (spec §7 PUT …/extension).
 */
function ExtensionSection({
  type,
  items,
  mine,
  allowSelect,
  deadline,
  test,
  onSave,
}: {
  type: 1 | 2;
  items: OnlineExtensionItem[];
  mine: UserExtensionItemView[];
  allowSelect: boolean;
  deadline: string | null;
  test: boolean;
  onSave: (items: UserExtensionItemInput[]) => Promise<void>;
}) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const initial = () =>
    Object.fromEntries(
      mine.map((m) => [m.itemId, { have: true, option: m.option, licencePlate: m.licencePlate ?? '' } as Choice]),
    ) as Record<number, Choice>;
  const [choices, setChoices] = useState<Record<number, Choice>>(initial);
  const [saving, setSaving] = useState(false);
  const mineById = new Map(mine.map((m) => [m.itemId, m]));
  const shown = allowSelect ? items : items.filter((i) => mineById.has(i.id));
  const optionName = (item: OnlineExtensionItem, id: number | null) =>
    id === null ? t('preview.noOption') : channelText(item.options.find((o) => o.id === id)?.name ?? {}, language);

  const set = (itemId: number, patch: Partial<Choice>) =>
    setChoices((c) => ({ ...c, [itemId]: { ...(c[itemId] ?? NO_CHOICE), ...patch } }));

  const save = async () => {
    setSaving(true);
    try {
      await onSave(
        Object.entries(choices)
          .filter(([, c]) => c.have)
          .map(([itemId, c]) => ({
            itemId: Number(itemId),
            option: c.option,
            have: true,
            ...(type === 2 ? { licencePlate: c.licencePlate || null } : {}),
          })),
      );
    } finally {
      setSaving(false);
    }
  };

  if (!shown.length) return <Text c="dimmed">{t('preview.noItems')}</Text>;
  return (
    <Stack gap="sm">
      {allowSelect && deadline && (
        <Text size="sm">{t('preview.deadline', { date: formatDateTime(deadline, language) })}</Text>
      )}
      <Table>
        <Table.Tbody>
          {shown.map((item) => {
            const had = mineById.get(item.id);
            const choice = choices[item.id];
            const used = Boolean(had?.dateUsed);
            const name = itemName(item, language);
            if (!allowSelect || used)
              return (
                <Table.Tr key={item.id}>
                  <Table.Td>{name}</Table.Td>
                  <Table.Td>
                    {had && (item.options.length > 0 ? optionName(item, had.option) : '')}
                    {type === 2 && had?.licencePlate ? ` · ${had.licencePlate}` : ''}
                  </Table.Td>
                  <Table.Td>{used && <Badge color="gray">{t('preview.used')}</Badge>}</Table.Td>
                </Table.Tr>
              );
            const fullItem = item.full && !had;
            return (
              <Table.Tr key={item.id}>
                <Table.Td>
                  <Checkbox
                    label={name}
                    checked={Boolean(choice?.have)}
                    disabled={fullItem}
                    onChange={(e) => set(item.id, { have: e.currentTarget.checked })}
                  />
                </Table.Td>
                <Table.Td>
                  {item.options.length > 0 && (
                    <NativeSelect
                      aria-label={`${t('preview.option')}: ${name}`}
                      disabled={!choice?.have}
                      value={choice?.option === null || choice?.option === undefined ? '' : String(choice.option)}
                      onChange={(e) =>
                        set(item.id, { option: e.currentTarget.value ? Number(e.currentTarget.value) : null })
                      }
                      data={[
                        { value: '', label: t('preview.noOption') },
                        ...item.options.map((o) => ({
                          value: String(o.id),
                          label: `${channelText(o.name, language)}${o.note ? ` (${o.note})` : ''}${o.full && had?.option !== o.id ? ` – ${t('preview.full')}` : ''}`,
                          disabled: o.full && had?.option !== o.id,
                        })),
                      ]}
                    />
                  )}
                  {type === 2 && (
                    <TextInput
                      aria-label={`${t('preview.licencePlate')}: ${name}`}
                      placeholder={t('preview.licencePlate')}
                      disabled={!choice?.have}
                      maxLength={20}
                      value={choice?.licencePlate ?? ''}
                      onChange={(e) => set(item.id, { licencePlate: e.currentTarget.value })}
                    />
                  )}
                </Table.Td>
                <Table.Td>{fullItem && <Badge color="red">{t('preview.full')}</Badge>}</Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
      {allowSelect && !test && (
        <Group justify="flex-end">
          <WorkingButton busy={saving} onClick={() => void save()}>
            {t('preview.save')}
          </WorkingButton>
        </Group>
      )}
    </Stack>
  );
}

/**
 * `/preview/:subjectKey/cid/:code` (spec §2 Preview page): the title (default: accreditation system)
 * and image, the collapsible sections their show flags allow (information, credit, meals, parking),
 * self-selection of meals and parking until the deadline, the footer; 'page not found' for a wrong
 * key or code (spec §8 Preview).
 */
export function PreviewPage() {
  const { subjectKey = '', code = '' } = useParams();
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: PREVIEW_KEY(subjectKey, code),
    queryFn: () => previewApi.get(subjectKey, code),
    retry: false,
  });
  const languages = usePreviewLanguages(query.data);

  if (query.isPending) return <LoadingState />;
  if (!query.data)
    return (
      <Paper withBorder p="xl" radius="md">
        <Alert color="yellow" role="alert" title={t('preview.pageNotFound')}>
          {isApiError(query.error) && query.error.status === 404
            ? t('preview.pageNotFoundText')
            : t('preview.loadError')}
        </Alert>
      </Paper>
    );

  const data = query.data;
  const language = i18n.language;
  const pd = data.previewData;
  const title = channelText(pd.title, language) || t('preview.defaultTitle');
  const blockTitle = (b: PreviewBlock, fallback: string) => channelText(b.title, language) || t(fallback);

  const save = (type: 1 | 2) => async (items: UserExtensionItemInput[]) => {
    try {
      await previewApi.select(subjectKey, code, type, { items });
      notifySuccess('preview.assigned');
    } catch (error) {
      notifyError(
        isApiError(error) && error.code === 'EXTENSION_CAPACITY_FULL' ? 'preview.full' : 'preview.assignedError',
      );
    }
    // spec §8 Preview: the page reloads after a save
    await queryClient.invalidateQueries({ queryKey: PREVIEW_KEY(subjectKey, code) });
  };

  const sections: { value: string; title: string; body: React.ReactNode }[] = [];
  if (pd.custom.show)
    sections.push({
      value: 'custom',
      title: blockTitle(pd.custom, 'preview.information'),
      body: <BlockHtml html={channelText(pd.custom.html, language)} />,
    });
  if (pd.credit.show && data.isCredit)
    sections.push({
      value: 'credit',
      title: blockTitle(pd.credit, 'preview.credit'),
      body: (
        <Stack gap="xs">
          <BlockHtml html={channelText(pd.credit.html, language)} />
          <Text fw={600}>
            {t('preview.balance')}:{' '}
            {data.unlimited ? t('preview.unlimited') : t('preview.currency', { amount: data.credit })}
          </Text>
        </Stack>
      ),
    });
  for (const [type, block, items, mine, allow, key] of [
    [1, pd.meal, data.mealItems, data.userMeal, data.allowMealSelect, 'meal'],
    [2, pd.parking, data.parkingItems, data.userParking, data.allowParkingSelect, 'parking'],
  ] as const)
    if (block.show)
      sections.push({
        value: key,
        title: blockTitle(block, `preview.${key}`),
        body: (
          <Stack gap="sm">
            <BlockHtml html={channelText(block.html, language)} />
            <ExtensionSection
              key={JSON.stringify(mine)}
              type={type}
              items={items}
              mine={mine}
              allowSelect={allow}
              deadline={block.selectDateTime}
              test={data.test}
              onSave={save(type)}
            />
          </Stack>
        ),
      });

  return (
    <Stack gap="md">
      <Paper withBorder p={{ base: 'sm', sm: 'md' }} radius="md">
        <Group justify="space-between" align="center" wrap="wrap" gap="sm">
          <Group gap="md" wrap="nowrap">
            {pd.image && <Image src={pd.image} alt={t('preview.image')} h={56} w="auto" fit="contain" />}
            <Title order={1} size="h2">
              {title}
            </Title>
          </Group>
          {languages.length > 1 && <LanguageSwitcher languages={languages} />}
        </Group>
      </Paper>
      {data.test && (
        <Alert color="blue" role="status">
          {t('preview.testPreview')}
        </Alert>
      )}
      {data.userDays.length > 0 && (
        <Paper withBorder p="md" radius="md">
          <Text fw={600}>{t('preview.days')}</Text>
          <Text>{data.userDays.map((d) => channelText(d.name, language) || formatDay(d.id, language)).join(', ')}</Text>
        </Paper>
      )}
      {sections.length > 0 && (
        <Paper withBorder radius="md">
          <Accordion multiple defaultValue={sections.map((s) => s.value)}>
            {sections.map((s) => (
              <Accordion.Item key={s.value} value={s.value}>
                <Accordion.Control>{s.title}</Accordion.Control>
                <Accordion.Panel>{s.body}</Accordion.Panel>
              </Accordion.Item>
            ))}
          </Accordion>
        </Paper>
      )}
      <Text component="footer" size="sm" c="dimmed" ta="center">
        {t('preview.footerHelpNoPhone')} · {t('preview.footerCredit')}
      </Text>
    </Stack>
  );
}
