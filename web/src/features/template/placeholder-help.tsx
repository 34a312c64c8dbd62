import { ActionIcon, Code, CopyButton, Group, Paper, Stack, Table, Text, Title, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import {
  DAYS_LOOP_EXAMPLE,
  MEMBERSHIP_HELPERS,
  type MembershipHelper,
  NOCHECK_EXAMPLE,
  PLACEHOLDERS,
} from '@accredo/templates/catalogue';

function CopyCode({ code }: { code: string }) {
  const { t } = useTranslation();
  return (
    <CopyButton value={code}>
      {({ copied, copy }) => (
        <Tooltip label={copied ? t('basics.copied') : t('basics.copy')} withArrow>
          <ActionIcon
            variant="subtle"
            color={copied ? 'teal' : 'gray'}
            size="sm"
            onClick={copy}
            aria-label={`${t('basics.copy')}: ${code}`}
          >
            {copied ? <IconCheck size={14} /> : <IconCopy size={14} />}
          </ActionIcon>
        </Tooltip>
      )}
    </CopyButton>
  );
}

/**
 * The placeholder help of the template form (spec §2 Other forms, §3 Accreditation template): the
 * engine's own catalogue, so the help lists exactly what the check and the rendering know.
 */
export function PlaceholderHelp() {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="placeholder-help-title">
      <Title order={2} size="h5" id="placeholder-help-title" mb="xs">
        {t('template.placeholders')}
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        {t('template.placeholdersIntro')}
      </Text>
      <Table verticalSpacing={4} fz="sm">
        <Table.Tbody>
          {PLACEHOLDERS.map((p) => (
            <Table.Tr key={p.code}>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>
                <Group gap={4} wrap="nowrap">
                  <Code>{p.code}</Code>
                  <CopyCode code={p.code} />
                </Group>
              </Table.Td>
              <Table.Td>{t(p.key)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Stack gap="xs" mt="md">
        <Text size="sm" fw={500}>
          {t('template.loopTitle')}
        </Text>
        <Text size="sm">{t('template.loopHint')}</Text>
        <Group gap={4} align="flex-start" wrap="nowrap">
          <Code block style={{ flex: 1 }}>
            {DAYS_LOOP_EXAMPLE}
          </Code>
          <CopyCode code={DAYS_LOOP_EXAMPLE} />
        </Group>
        <Text size="sm" fw={500}>
          {t('template.helpersTitle')}
        </Text>
        <Text size="sm">{t('template.helpersHint')}</Text>
        {(Object.keys(MEMBERSHIP_HELPERS) as MembershipHelper[]).map((helper) => (
          <Stack gap={2} key={helper}>
            <Text size="sm">{t(MEMBERSHIP_HELPERS[helper].key)}</Text>
            <Group gap={4} align="flex-start" wrap="nowrap">
              <Code block style={{ flex: 1 }}>
                {MEMBERSHIP_HELPERS[helper].example}
              </Code>
              <CopyCode code={MEMBERSHIP_HELPERS[helper].example} />
            </Group>
          </Stack>
        ))}
        <Text size="sm" fw={500}>
          {t('template.nocheckTitle')}
        </Text>
        <Text size="sm">
          {t('template.nocheckHint')} <Code>{NOCHECK_EXAMPLE}</Code>
        </Text>
      </Stack>
    </Paper>
  );
}
