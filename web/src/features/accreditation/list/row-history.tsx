import { ActionIcon, Stack, Text, Tooltip } from '@mantine/core';
import { IconHistory } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { AccreditationRow } from '../../../api/accreditation-list';

/**
 * The row tooltip of spec §2 Accreditation list: the 5 latest mails, prints and passages of one
 * person, newest first, as the list call carries them. Opens on hover and on keyboard focus.
 */
export function RowHistory({ row }: { row: AccreditationRow }) {
  const { t, i18n } = useTranslation();
  const history = row.history ?? { mail: [], print: [], entrance: [] };
  const when = (iso: string) => new Date(iso).toLocaleString(i18n.language);
  const section = (title: string, lines: string[]) => (
    <div>
      <Text size="xs" fw={700}>
        {title}
      </Text>
      {lines.length ? (
        lines.map((line, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the lines are a fixed, ordered snapshot
          <Text size="xs" key={i}>
            {line}
          </Text>
        ))
      ) : (
        <Text size="xs" c="dimmed">
          {t('accreditationHistory.none')}
        </Text>
      )}
    </div>
  );
  const label = (
    <Stack gap={6}>
      {section(
        t('accreditationHistory.mails'),
        history.mail.map((m) =>
          [
            when(m.date),
            m.mailTemplate,
            t(`accreditationHistory.mailStatus.${m.status}`, { defaultValue: m.status }),
            m.fail,
            m.uncertain ? t('accreditationHistory.mailUncertain') : null,
            m.adminUser,
          ]
            .filter(Boolean)
            .join(' · '),
        ),
      )}
      {section(
        t('accreditationHistory.prints'),
        history.print.map((p) =>
          [
            when(p.date),
            p.adminUser,
            // a print with "replace the old badge": the badge it retired (refused at the gates since)
            p.retiredVersion === null || p.retiredVersion === undefined
              ? null
              : t('accreditationHistory.badgeRetired', { version: p.retiredVersion, current: p.badgeVersion }),
          ]
            .filter(Boolean)
            .join(' · '),
        ),
      )}
      {section(
        t('accreditationHistory.entrances'),
        history.entrance.map((e) =>
          [
            when(e.date),
            t(e.type === 1 ? 'accreditationHistory.entry' : 'accreditationHistory.exit'),
            e.deviceId === null ? null : t('accreditationHistory.device', { id: e.deviceId }),
          ]
            .filter(Boolean)
            .join(' · '),
        ),
      )}
    </Stack>
  );
  const name = `${row.firstname} ${row.lastname}`;
  return (
    <Tooltip
      label={label}
      multiline
      w={320}
      withArrow
      position="left"
      events={{ hover: true, focus: true, touch: true }}
    >
      <ActionIcon variant="subtle" color="gray" aria-label={t('accreditationHistory.historyOf', { name })}>
        <IconHistory size={16} />
      </ActionIcon>
    </Tooltip>
  );
}
