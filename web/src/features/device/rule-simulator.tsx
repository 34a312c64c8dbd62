import { deviceTemplateDataSchema, localDateTime } from '@accredo/access';
import { hasRight } from '@accredo/domain';
import { Alert, Badge, Button, Group, Paper, Select, Stack, Switch, Table, Text, Title } from '@mantine/core';
import { IconPlayerPlay } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { accreditationListApi, EMPTY_FILTER } from '../../api/accreditation-list';
import {
  type DeviceTemplatePayload,
  deviceApi,
  type PersonSimulation,
  type TemplateSimulation,
} from '../../api/device';
import { useAdminSession } from '../../app/admin-session';
import { notifyError } from '../../app/notify';
import { rawTemplateData, type RulesFormValues } from './rules-form';
import { DateField, TimeField } from '../../components/date-fields';

/** now on the subject's wall clock (the moment the server reads a chosen day and time in) */
function nowParts(timeZone: string | undefined) {
  try {
    return localDateTime(Date.now(), timeZone || 'Europe/Prague');
  } catch {
    return localDateTime(Date.now(), 'Europe/Prague');
  }
}

function Decision({ allowed }: { allowed: boolean }) {
  const { t } = useTranslation();
  return (
    <Badge color={allowed ? 'green' : 'red'} variant="light" tt="none">
      {t(allowed ? 'device.sim.allowed' : 'device.sim.refused')}
    </Badge>
  );
}

/**
 * "Who would get in, where, when" (issue 11): the template form's unsaved state decided by the
 * engine on the server for every person of the action at a chosen day and time, and for one person
 * at every device of the action. Nothing is written.
 */
export function RuleSimulator({
  form,
  templateId,
}: {
  form: UseFormReturn<RulesFormValues, unknown, DeviceTemplatePayload>;
  templateId: number | null;
}) {
  const { t, i18n } = useTranslation();
  const session = useAdminSession();
  const timeZone = session.subject?.timeZone;
  const start = nowParts(timeZone);
  // "now" is the server's moment of the click (the entries of this minute count, whatever this
  // computer's clock or time zone); a chosen day and time are the subject's wall clock
  const [now, setNow] = useState(true);
  const [day, setDay] = useState(start.day);
  const [time, setTime] = useState(start.time);
  const [personId, setPersonId] = useState<string | null>(null);
  const [search, setSearch] = useState('');
  const [counts, setCounts] = useState<TemplateSimulation | null>(null);
  const [person, setPerson] = useState<PersonSimulation | null>(null);
  const [working, setWorking] = useState<'counts' | 'person' | null>(null);
  const actionId = Number(form.watch('actionId')) || null;
  const canSearch = hasRight(session, 'user', 'getUser');
  const people = useQuery({
    queryKey: ['admin', 'device', 'sim-people', actionId, search],
    queryFn: ({ signal }) =>
      accreditationListApi.list(
        { actionId: actionId as number, page: 1, pageSize: 20, filterData: { ...EMPTY_FILTER, text: search || null } },
        signal,
      ),
    enabled: Boolean(actionId) && canSearch,
  });
  const peopleData = (people.data?.data ?? []).map((p) => ({
    value: String(p.id),
    label: `${p.firstname} ${p.lastname} (${p.customId})`,
  }));
  const chosen = /^\d{4}-\d{2}-\d{2}$/.test(day) && /^\d{2}:\d{2}$/.test(time) ? `${day}T${time}` : null;
  /** the moment sent: null = now; undefined = the chosen day and time are not valid */
  const at = now ? null : (chosen ?? undefined);
  /** the decided moment as the subject's wall clock shows it */
  const atText = (iso: string) => {
    try {
      return new Date(iso).toLocaleString(i18n.language, { dateStyle: 'short', timeStyle: 'short', timeZone });
    } catch {
      return new Date(iso).toLocaleString(i18n.language, { dateStyle: 'short', timeStyle: 'short' });
    }
  };

  /** the form's template as the server reads it, or null (with the form's errors shown) */
  const current = async () => {
    if (!(await form.trigger())) {
      notifyError('device.sim.fixForm');
      return null;
    }
    const values = form.getValues();
    return {
      templateId,
      actionId: Number(values.actionId),
      zoneId: values.zoneId ? Number(values.zoneId) : null,
      data: deviceTemplateDataSchema.parse(rawTemplateData(values)),
    };
  };

  const runCounts = async () => {
    const template = await current();
    if (!template || at === undefined) return;
    setWorking('counts');
    try {
      setCounts(await deviceApi.simulate({ ...template, at }));
    } catch {
      notifyError('device.sim.error');
    } finally {
      setWorking(null);
    }
  };

  const runPerson = async () => {
    const template = await current();
    if (!template || at === undefined || !personId) return;
    setWorking('person');
    try {
      setPerson(await deviceApi.simulatePerson({ accreditationId: Number(personId), at, template }));
    } catch {
      notifyError('device.sim.error');
    } finally {
      setWorking(null);
    }
  };

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="simulator-title">
      <Title order={2} size="h4" id="simulator-title" mb={4}>
        {t('device.sim.title')}
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        {t('device.sim.intro')}
      </Text>
      <Group align="flex-end" gap="md" wrap="wrap">
        <Switch
          label={t('device.sim.now')}
          checked={now}
          onChange={(e) => {
            const on = e.currentTarget.checked;
            setNow(on);
            // a chosen moment starts from the subject's now, not from when the page was opened
            if (!on) {
              const current = nowParts(timeZone);
              setDay(current.day);
              setTime(current.time);
            }
          }}
          mb={8}
        />
        <DateField
          label={t('device.sim.day')}
          value={day}
          disabled={now}
          onChange={setDay}
          error={now || chosen ? undefined : t('basics.enterCorrectDate')}
        />
        <TimeField label={t('device.sim.time')} value={time} disabled={now} onChange={setTime} />
        <Button
          leftSection={<IconPlayerPlay size={16} />}
          onClick={runCounts}
          loading={working === 'counts'}
          disabled={at === undefined || !actionId}
        >
          {t('device.sim.runCounts')}
        </Button>
      </Group>
      {!actionId && (
        <Alert color="gray" mt="sm">
          {t('device.sim.chooseAction')}
        </Alert>
      )}
      {counts && (
        <Stack gap="xs" mt="md" data-testid="sim-counts">
          <Group gap="lg">
            {now && (
              <Text size="sm" c="dimmed">
                {t('device.sim.at', { at: atText(counts.at) })}
              </Text>
            )}
            <Text size="sm">{t('device.sim.total', { count: counts.total })}</Text>
            <Text size="sm" c="green">
              {t('device.sim.allowedCount', { count: counts.allowed })}
            </Text>
            <Text size="sm" c="red">
              {t('device.sim.refusedCount', { count: counts.refused })}
            </Text>
          </Group>
          <Table aria-label={t('device.sim.byReason')} striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('device.sim.decision')}</Table.Th>
                <Table.Th>{t('device.sim.reason')}</Table.Th>
                <Table.Th>{t('device.sim.people')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {counts.reasons.map((r) => (
                <Table.Tr key={`${r.allowed}-${r.reason}`}>
                  <Table.Td>
                    <Decision allowed={r.allowed} />
                  </Table.Td>
                  <Table.Td>{r.message}</Table.Td>
                  <Table.Td>{r.count}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Stack>
      )}

      <Title order={3} size="h5" mt="lg" mb="xs">
        {t('device.sim.personTitle')}
      </Title>
      <Group align="flex-end" gap="md" wrap="wrap">
        <Select
          w={320}
          label={t('device.sim.person')}
          placeholder={canSearch ? t('device.sim.personPlaceholder') : t('device.sim.noUserRight')}
          data={peopleData}
          searchable
          searchValue={search}
          onSearchChange={setSearch}
          value={personId}
          onChange={setPersonId}
          filter={({ options }) => options}
          nothingFoundMessage={t('basics.noData')}
          disabled={!canSearch || !actionId}
        />
        <Button
          variant="light"
          leftSection={<IconPlayerPlay size={16} />}
          onClick={runPerson}
          loading={working === 'person'}
          disabled={at === undefined || !personId}
        >
          {t('device.sim.runPerson')}
        </Button>
      </Group>
      {person && (
        <Table mt="md" aria-label={t('device.sim.personResult')} striped data-testid="sim-person">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('device.sim.device')}</Table.Th>
              <Table.Th>{t('device.template')}</Table.Th>
              <Table.Th>{t('device.sim.decision')}</Table.Th>
              <Table.Th>{t('device.sim.reason')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {person.rows.length === 0 && (
              <Table.Tr>
                <Table.Td colSpan={4}>{t('device.sim.noDevices')}</Table.Td>
              </Table.Tr>
            )}
            {person.rows.map((r, i) => (
              <Table.Tr key={r.deviceId ?? `form-${i}`}>
                <Table.Td>{r.deviceId === null ? t('device.sim.thisForm') : r.deviceName}</Table.Td>
                <Table.Td>{r.templateName ?? t('device.sim.unsaved')}</Table.Td>
                <Table.Td>
                  <Decision allowed={r.allowed} />
                </Table.Td>
                <Table.Td>{r.message}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Paper>
  );
}
