import { EXTENSION_MEAL, EXTENSION_TYPES, type ExtensionReport, type ExtensionType } from '@accredo/domain';
import { Alert, Button, Group, Paper, Select, Stack, Table, Text } from '@mantine/core';
import { IconDownload, IconTable } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { saveBlob } from '../../api/accreditation-files';
import { localized } from '../../api/action';
import { extensionApi } from '../../api/action-extension';
import { useAdminSession } from '../../app/admin-session';
import { notifyWorking } from '../../app/notify';
import { PageHeader } from '../../components/page-header';
import { formatDay } from '../action/date-tab';
import { extensionKey, notifyExtensionError } from './shared';

/**
 * `/action-extension/report` (spec §2, §7 POST …/{type}/{actionId}/report): pick the extension type
 * and an action with that extension (both required), optionally one day; show the counts per day
 * and item (chose, used, by option) or download them as xlsx.
 */
export function ExtensionReportPage() {
  const { t, i18n } = useTranslation();
  const session = useAdminSession();
  const types = EXTENSION_TYPES.filter((type) => session.subject.extensions.includes(type));
  const [type, setType] = useState<ExtensionType | null>(types.length === 1 ? types[0] : null);
  const [actionId, setActionId] = useState<string | null>(null);
  const [report, setReport] = useState<ExtensionReport | null>(null);
  const [working, setWorking] = useState(false);
  const actions = useQuery({
    queryKey: type ? extensionKey(type, 'actions') : ['admin', 'action-extension', 'none'],
    queryFn: () => extensionApi.actions(type as ExtensionType),
    enabled: type !== null,
  });
  const actionData = (actions.data ?? [])
    .filter((a) => a.active)
    .map((a) => ({ value: String(a.id), label: localized(a.name, i18n.language) }));
  const valid = type !== null && actionId !== null;
  const typeLabel = (v: ExtensionType) => t(v === EXTENSION_MEAL ? 'extension.meal.title' : 'extension.parking.title');

  const show = async () => {
    if (!valid) return;
    setWorking(true);
    try {
      setReport(await extensionApi.report(type, Number(actionId), null));
    } catch (error) {
      notifyExtensionError(error, 'extension.report.error');
    } finally {
      setWorking(false);
    }
  };
  const download = async () => {
    if (!valid) return;
    const done = notifyWorking('extension.report.preparing');
    try {
      saveBlob(await extensionApi.reportFile(type, Number(actionId), null));
    } catch (error) {
      notifyExtensionError(error, 'extension.report.error');
    } finally {
      done();
    }
  };

  return (
    <>
      <PageHeader title={t('extension.report.title')} />
      <Stack>
        {types.length === 0 && <Alert color="gray">{t('extension.noneEnabled')}</Alert>}
        <Group align="flex-end" wrap="wrap">
          <Select
            w={220}
            label={t('extension.report.type')}
            required
            data={types.map((v) => ({ value: String(v), label: typeLabel(v) }))}
            value={type ? String(type) : null}
            onChange={(v) => {
              setType(v ? (Number(v) as ExtensionType) : null);
              setActionId(null);
              setReport(null);
            }}
            allowDeselect={false}
          />
          <Select
            w={280}
            label={t('extension.report.action')}
            required
            searchable
            disabled={type === null}
            data={actionData}
            value={actionId}
            onChange={(v) => {
              setActionId(v);
              setReport(null);
            }}
            nothingFoundMessage={t('extension.noActions')}
          />
        </Group>
        <Group>
          <Button leftSection={<IconTable size={16} />} onClick={show} loading={working} disabled={!valid}>
            {t('extension.report.show')}
          </Button>
          <Button variant="light" leftSection={<IconDownload size={16} />} onClick={download} disabled={!valid}>
            {t('extension.report.download')}
          </Button>
        </Group>
        {report && (
          <Paper withBorder p="xs" style={{ overflowX: 'auto' }}>
            {report.rows.length === 0 ? (
              <Text size="sm" c="dimmed">
                {t('extension.report.noRows')}
              </Text>
            ) : (
              <Table aria-label={t('extension.report.result')} striped>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('extension.date')}</Table.Th>
                    <Table.Th>{t('extension.label')}</Table.Th>
                    <Table.Th>{t('extension.capacity')}</Table.Th>
                    <Table.Th>{t('extension.report.chose')}</Table.Th>
                    <Table.Th>{t('extension.report.used')}</Table.Th>
                    <Table.Th>{t('extension.report.byOption')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {report.rows.map((row) => (
                    <Table.Tr key={row.itemId}>
                      <Table.Td>{row.date ? formatDay(row.date, i18n.language) : t('extension.wholeEvent')}</Table.Td>
                      <Table.Td>
                        {localized(row.label, i18n.language)}
                        {row.timeFrom ? ` ${row.timeFrom}–${row.timeTo}` : ''}
                      </Table.Td>
                      <Table.Td>{row.capacity ?? t('extension.unlimited')}</Table.Td>
                      <Table.Td>{row.chose}</Table.Td>
                      <Table.Td>{row.used}</Table.Td>
                      <Table.Td>
                        {row.options.length === 0
                          ? t('basics.dash')
                          : row.options
                              .map(
                                (o) =>
                                  `${o.option === null ? t('extension.users.noOption') : localized(o.name, i18n.language)}: ${o.chose}/${o.used}`,
                              )
                              .join(', ')}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            )}
          </Paper>
        )}
      </Stack>
    </>
  );
}
