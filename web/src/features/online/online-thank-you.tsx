import type { OnlineChannelData, OnlineExtensionItem, OnlineRegistrationResult } from '@accredo/domain';
import { Alert, Box, Button, Stack, Table, Text, Title } from '@mantine/core';
import { IconMailForward } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { sanitizeHtml } from '../../components/sanitize-html';
import { formatDay } from '../action/format-day';
import { itemName } from './online-extension-selects';
import { channelText, hasHtml, type OnlineFormOutput } from './online-form-values';
import { OnlineCard } from './online-shared';

/** What was registered: the result of the call and the values the visitor sent (never read back from the server). */
export interface Registered {
  result: OnlineRegistrationResult;
  values: OnlineFormOutput;
}

/** A chosen meal or parking item as a line: the item's name with the option (place) chosen. */
function choiceLine(items: OnlineExtensionItem[], itemId: number, option: number | null | undefined, language: string) {
  const item = items.find((i) => i.id === itemId);
  if (!item) return null;
  const chosen = option === null || option === undefined ? null : item.options.find((o) => o.id === option);
  const name = itemName(item, language);
  return chosen ? `${name} – ${channelText(chosen.name, language)}` : name;
}

/** The rows of the summary: only what this visitor entered, labelled as on the form. */
function useSummaryRows(data: OnlineChannelData, values: OnlineFormOutput): [string, string[]][] {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const label = (custom: Parameters<typeof channelText>[0], fallback: string) =>
    channelText(custom, language) || t(fallback);
  const rows: [string, string[]][] = [
    [t('online.name'), [`${values.firstname} ${values.lastname}`.trim()]],
    [label(data.customNameEmail, 'online.email'), [values.email]],
  ];
  if (data.viewGroups && values.groups.length > 0) {
    const names = values.groups.map((id) => {
      const group = data.groups.find((g) => g.id === Number(id));
      return group ? channelText(group.displayName, language) || group.name : String(id);
    });
    rows.push([label(data.groupsSelectName, 'online.group'), names]);
  }
  if (data.viewDays && values.days.length > 0) {
    const days = [...values.days].sort().map((id) => {
      const day = data.days.find((d) => d.id === id);
      return (day && channelText(day.name, language)) || formatDay(id, language);
    });
    rows.push([label(data.daysSelectName, 'online.days'), days]);
  }
  const meals = values.mealItems
    .map((i) => choiceLine(data.mealItems ?? [], i.itemId, i.option, language))
    .filter((line): line is string => line !== null);
  if (meals.length > 0) rows.push([t('extension.online.meal'), meals]);
  const parking = values.parkingItems
    .map((i) => choiceLine(data.parkingItems ?? [], i.itemId, i.option, language))
    .filter((line): line is string => line !== null);
  if (parking.length > 0) rows.push([t('extension.online.parking'), parking]);
  const plate = values.parkingItems.find((i) => i.licencePlate)?.licencePlate;
  if (parking.length > 0 && plate) rows.push([t('extension.online.licencePlate'), [plate]]);
  return rows;
}

/**
 * After a registration (spec §2, §4 Online flow): the after-registration text or the default one,
 * a summary of what this visitor registered, a note that the confirmation mail is on its way when
 * the channel or action sends one, and 'add next' unless the after-add setting says nothing.
 */
export function ThankYou({
  data,
  registered,
  onNext,
}: {
  data: OnlineChannelData;
  registered: Registered;
  onNext: () => void;
}) {
  const { t, i18n } = useTranslation();
  const { result, values } = registered;
  const text = channelText(data.textAfterAdd, i18n.language);
  const addNext = (result.afterAdd?.action ?? data.afterAdd.action) === 1;
  const rows = useSummaryRows(data, values);
  return (
    <OnlineCard>
      <Stack gap="md" align="stretch" role="status" aria-live="polite">
        <Title order={2} size="h3">
          {t('online.thankYouTitle')}
        </Title>
        {hasHtml(text) ? (
          // biome-ignore lint/security/noDangerouslySetInnerHtml: the channel's own text, sanitised
          <div dangerouslySetInnerHTML={{ __html: sanitizeHtml(text) }} />
        ) : (
          <Text>{t('online.registered')}</Text>
        )}
        {result.confirmationMail && (
          <Alert color="blue" variant="light" icon={<IconMailForward size={20} aria-hidden />}>
            {t('online.mailOnItsWay', { email: values.email })}
          </Alert>
        )}
        <Box component="section" aria-labelledby="online-summary-title">
          <Title order={3} size="h4" id="online-summary-title" mb="xs">
            {t('online.summaryTitle')}
          </Title>
          <Table variant="vertical" layout="fixed" withTableBorder>
            <Table.Tbody>
              {rows.map(([name, lines]) => (
                <Table.Tr key={name}>
                  <Table.Th scope="row" w="40%">
                    {name}
                  </Table.Th>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>
                    {lines.map((line) => (
                      <div key={line}>{line}</div>
                    ))}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Box>
        {addNext && (
          <Box>
            <Button onClick={onNext}>{t('online.addNext')}</Button>
          </Box>
        )}
      </Stack>
    </OnlineCard>
  );
}
