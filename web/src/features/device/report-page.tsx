import type { ReportTable } from '@accredo/domain';
import { Alert, Button, Group, Paper, Select, Stack, Table, Tabs, Text } from '@mantine/core';
import { IconDownload, IconTable } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { saveBlob } from '../../api/accreditation-files';
import { deviceApi } from '../../api/device';
import { notifyError, notifyWorking } from '../../app/notify';
import { PageHeader } from '../../components/page-header';
import { useActionSelectData } from '../groups/setup-shared';
import { DEVICES_KEY } from './shared';
import { DateField } from '../../components/date-fields';

const REPORT_TYPES = [1, 2, 3] as const;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

interface Filter {
  actionId: string | null;
  deviceId: string | null;
  dateFrom: string;
  dateTo: string;
}

function useFilterFields(filter: Filter, setFilter: (f: Filter) => void, actionRequired: boolean) {
  const { t } = useTranslation();
  const actionData = useActionSelectData();
  const devices = useQuery({ queryKey: DEVICES_KEY, queryFn: deviceApi.list });
  const deviceData = (devices.data ?? []).map((d) => ({ value: String(d.id), label: d.name || d.uid }));
  const badDate = (v: string) => (v && !DATE.test(v) ? t('basics.enterCorrectDate') : undefined);
  return (
    <>
      <Select
        w={240}
        label={t('device.report.action')}
        data={actionData}
        value={filter.actionId}
        onChange={(actionId) => setFilter({ ...filter, actionId })}
        clearable={!actionRequired}
        required={actionRequired}
        searchable
      />
      <Select
        w={220}
        label={t('device.report.device')}
        placeholder={t('device.report.allDevices')}
        data={deviceData}
        value={filter.deviceId}
        onChange={(deviceId) => setFilter({ ...filter, deviceId })}
        clearable
        searchable
      />
      <DateField
        label={t('device.report.dateFrom')}
        value={filter.dateFrom}
        onChange={(dateFrom) => setFilter({ ...filter, dateFrom })}
        error={badDate(filter.dateFrom)}
      />
      <DateField
        label={t('device.report.dateTo')}
        value={filter.dateTo}
        onChange={(dateTo) => setFilter({ ...filter, dateTo })}
        error={badDate(filter.dateTo)}
      />
    </>
  );
}

const payloadOf = (f: Filter) => ({
  actionId: f.actionId ? Number(f.actionId) : null,
  deviceId: f.deviceId ? Number(f.deviceId) : null,
  dateFrom: f.dateFrom || null,
  dateTo: f.dateTo || null,
});

const EMPTY: Filter = { actionId: null, deviceId: null, dateFrom: '', dateTo: '' };

/** The report form (spec §7 POST report): a table on screen or the same as xlsx. */
function ReportForm() {
  const { t } = useTranslation();
  const [type, setType] = useState<string | null>('1');
  const [filter, setFilter] = useState<Filter>(EMPTY);
  const [table, setTable] = useState<ReportTable | null>(null);
  const [working, setWorking] = useState(false);
  const fields = useFilterFields(filter, setFilter, false);
  const valid = Boolean(type) && [filter.dateFrom, filter.dateTo].every((d) => !d || DATE.test(d));
  const body = () => ({ type: Number(type), ...payloadOf(filter) });

  const show = async () => {
    setWorking(true);
    try {
      setTable(await deviceApi.report(body()));
    } catch {
      notifyError('device.report.error');
    } finally {
      setWorking(false);
    }
  };
  const download = async () => {
    const done = notifyWorking('device.report.preparing');
    try {
      saveBlob(await deviceApi.reportFile(body()));
    } catch {
      notifyError('device.report.error');
    } finally {
      done();
    }
  };

  return (
    <Stack>
      <Group align="flex-end" gap="md" wrap="wrap">
        <Select
          w={260}
          label={t('device.report.type')}
          required
          data={REPORT_TYPES.map((v) => ({ value: String(v), label: t(`device.report.types.${v}`) }))}
          value={type}
          onChange={setType}
          allowDeselect={false}
        />
        {fields}
      </Group>
      <Group>
        <Button leftSection={<IconTable size={16} />} onClick={show} loading={working} disabled={!valid}>
          {t('device.report.show')}
        </Button>
        <Button variant="light" leftSection={<IconDownload size={16} />} onClick={download} disabled={!valid}>
          {t('device.report.download')}
        </Button>
      </Group>
      {table && (
        <Paper withBorder p="xs" style={{ overflowX: 'auto' }}>
          {table.rows.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t('device.report.noRows')}
            </Text>
          ) : (
            <Table aria-label={t('device.report.result')} striped>
              <Table.Thead>
                <Table.Tr>
                  {table.columns.map((c) => (
                    <Table.Th key={c}>{c}</Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {table.rows.map((row, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: report rows have no id
                  <Table.Tr key={i}>
                    {row.map((cell, k) => (
                      // biome-ignore lint/suspicious/noArrayIndexKey: cells follow the columns
                      <Table.Td key={k}>{cell ?? t('basics.dash')}</Table.Td>
                    ))}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </Paper>
      )}
    </Stack>
  );
}

/** POST report/entrance: every entry and exit of an action as xlsx. */
function EntranceReportForm() {
  const { t } = useTranslation();
  const [filter, setFilter] = useState<Filter>(EMPTY);
  const fields = useFilterFields(filter, setFilter, true);
  const valid = Boolean(filter.actionId) && [filter.dateFrom, filter.dateTo].every((d) => !d || DATE.test(d));
  const download = async () => {
    const done = notifyWorking('device.report.preparing');
    try {
      const body = payloadOf(filter);
      saveBlob(await deviceApi.entranceFile({ ...body, actionId: body.actionId as number }));
    } catch {
      notifyError('device.report.error');
    } finally {
      done();
    }
  };
  return (
    <Stack>
      <Text size="sm">{t('device.report.entranceIntro')}</Text>
      <Group align="flex-end" gap="md" wrap="wrap">
        {fields}
      </Group>
      <Group>
        <Button leftSection={<IconDownload size={16} />} onClick={download} disabled={!valid}>
          {t('device.report.download')}
        </Button>
      </Group>
      {!filter.actionId && <Alert color="gray">{t('device.report.chooseAction')}</Alert>}
    </Stack>
  );
}

/** `/device/report` and `/device/report/entrance` (spec §2): the report search/download and the entrance report. */
export function ReportPage() {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const tab = location.pathname.endsWith('/entrance') ? 'entrance' : 'report';
  return (
    <>
      <PageHeader title={t('device.report.title')} />
      <Tabs
        value={tab}
        onChange={(v) => navigate(v === 'entrance' ? '/device/report/entrance' : '/device/report')}
        keepMounted={false}
      >
        <Tabs.List mb="md">
          <Tabs.Tab value="report">{t('device.report.reportTab')}</Tabs.Tab>
          <Tabs.Tab value="entrance">{t('device.report.entranceTab')}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="report">
          <ReportForm />
        </Tabs.Panel>
        <Tabs.Panel value="entrance">
          <EntranceReportForm />
        </Tabs.Panel>
      </Tabs>
    </>
  );
}
