import type { DashboardLatest } from '@accredo/domain';
import { Avatar, Group, Paper, Table, Text, UnstyledButton } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { actionApi } from '../../api/action';
import { STORAGE_KEYS, writeStorage } from '../../api/storage';
import { notifyError } from '../../app/notify';
import { ACTUAL_USER_KEY } from '../action/use-current-action';
import { textOf } from './dashboard-data';

/**
 * The latest registrations (spec §2 Dashboard): photo, first and last name, group or a dash, created,
 * action. A click makes the person's action the current one and opens the detail.
 */
export function DashboardLatestList({ rows }: { rows: DashboardLatest[] }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const format = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });

  const open = async (row: DashboardLatest) => {
    try {
      const { lastAction } = await actionApi.setCurrent(row.actionId);
      writeStorage(STORAGE_KEYS.currentAction, lastAction === null ? null : String(lastAction));
      queryClient.setQueryData(ACTUAL_USER_KEY, (old: Record<string, unknown> | undefined) =>
        old ? { ...old, lastAction } : old,
      );
      navigate(`/accreditation/detail/${row.id}`);
    } catch {
      notifyError('action.currentError');
    }
  };

  return (
    <Paper withBorder p="md" radius="md">
      <Text id="dashboard-latest" fw={600} mb="xs">
        {t('dashboard.latest.title')}
      </Text>
      {rows.length === 0 ? (
        <Text c="dimmed">{t('dashboard.latest.empty')}</Text>
      ) : (
        <Table aria-labelledby="dashboard-latest" highlightOnHover>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('dashboard.latest.photo')}</Table.Th>
              <Table.Th>{t('dashboard.latest.firstname')}</Table.Th>
              <Table.Th>{t('dashboard.latest.lastname')}</Table.Th>
              <Table.Th>{t('dashboard.latest.group')}</Table.Th>
              <Table.Th>{t('dashboard.latest.created')}</Table.Th>
              <Table.Th>{t('dashboard.latest.action')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row) => (
              <Table.Tr key={row.id}>
                <Table.Td>
                  <Avatar src={row.image} alt="" size="sm" radius="xl" />
                </Table.Td>
                <Table.Td>
                  <UnstyledButton
                    onClick={() => void open(row)}
                    aria-label={t('dashboard.latest.open', { name: `${row.firstname} ${row.lastname}` })}
                  >
                    <Group gap={4}>
                      <Text size="sm" c="violet" td="underline">
                        {row.firstname}
                      </Text>
                    </Group>
                  </UnstyledButton>
                </Table.Td>
                <Table.Td>{row.lastname}</Table.Td>
                <Table.Td>{row.groupName ?? '–'}</Table.Td>
                <Table.Td>{format.format(new Date(row.createdAt))}</Table.Td>
                <Table.Td>{textOf(row.actionName, i18n.language)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Paper>
  );
}
