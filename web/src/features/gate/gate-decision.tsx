import { Box, Center, Group, Image, Loader, Stack, Text, Title } from '@mantine/core';
import { IconUser } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { GateScanAnswer } from '../../api/gate';

/** What the decision area shows. */
export type Shown =
  | { kind: 'ready' }
  | { kind: 'checking'; code: string }
  | { kind: 'decision'; code: string; answer: GateScanAnswer; message: string }
  | { kind: 'unreachable'; code: string }
  | { kind: 'failed'; code: string; message: string }
  | { kind: 'paired' };

/** Green allowed, amber allowed with a note (the rule's info flag), red refused, orange no answer. */
function palette(shown: Shown): { bg: string; fg: string } {
  switch (shown.kind) {
    case 'decision':
      if (!shown.answer.allowed) return { bg: 'var(--mantine-color-red-8)', fg: 'white' };
      if (shown.answer.info) return { bg: 'var(--mantine-color-yellow-5)', fg: 'var(--mantine-color-dark-9)' };
      return { bg: 'var(--mantine-color-green-8)', fg: 'white' };
    case 'unreachable':
      return { bg: 'var(--mantine-color-orange-8)', fg: 'white' };
    case 'failed':
      return { bg: 'var(--mantine-color-red-8)', fg: 'white' };
    case 'paired':
      return { bg: 'var(--mantine-color-green-8)', fg: 'white' };
    default:
      return { bg: 'var(--mantine-color-gray-light)', fg: 'var(--mantine-color-text)' };
  }
}

/**
 * The decision, big and coloured, in a live region (role=status) so a screen reader says it: the
 * verdict, the reason explained in the operator's language, the person's photo, name and groups.
 */
export function GateDecision({ shown, showCredit }: { shown: Shown; showCredit: boolean }) {
  const { t } = useTranslation();
  const { bg, fg } = palette(shown);
  return (
    <Box
      role="status"
      aria-live="assertive"
      aria-atomic="true"
      data-state={shown.kind === 'decision' ? (shown.answer.allowed ? 'allowed' : 'refused') : shown.kind}
      p="xl"
      style={{
        flex: '1 1 auto',
        minHeight: '40vh',
        background: bg,
        color: fg,
        borderRadius: 'var(--mantine-radius-md)',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
      }}
    >
      <Content shown={shown} showCredit={showCredit} fg={fg} t={t} />
    </Box>
  );
}

function Content({
  shown,
  showCredit,
  fg,
  t,
}: {
  shown: Shown;
  showCredit: boolean;
  fg: string;
  t: ReturnType<typeof useTranslation>['t'];
}) {
  switch (shown.kind) {
    case 'ready':
      return (
        <Text size="xl" c="dimmed">
          {t('gate.ready')}
        </Text>
      );
    case 'checking':
      return (
        <Group>
          <Loader aria-hidden />
          <Text size="xl">{t('gate.checking', { code: shown.code })}</Text>
        </Group>
      );
    case 'paired':
      return (
        <Title order={2} style={{ fontSize: '3rem', color: fg }}>
          {t('gate.pair.done')}
        </Title>
      );
    case 'unreachable':
      return (
        <Stack align="center" gap="sm">
          <Title order={2} style={{ fontSize: '3rem', color: fg }}>
            {t('gate.unreachable.title')}
          </Title>
          <Text size="xl">{t('gate.unreachable.text', { code: shown.code })}</Text>
        </Stack>
      );
    case 'failed':
      return (
        <Stack align="center" gap="sm">
          <Title order={2} style={{ fontSize: '3rem', color: fg }}>
            {t('gate.result.refused')}
          </Title>
          <Text size="xl">{t('gate.failed', { code: shown.code, message: shown.message })}</Text>
        </Stack>
      );
    case 'decision': {
      const { answer } = shown;
      const person = answer.person;
      const name = person ? `${person.firstname} ${person.lastname}`.trim() : '';
      const verdict = answer.allowed
        ? answer.info
          ? t('gate.result.info')
          : t('gate.result.allowed')
        : t('gate.result.refused');
      return (
        <Group gap="xl" align="center" wrap="nowrap" w="100%" justify="center">
          {person && (
            <Box w={180} h={220} style={{ flex: 'none', borderRadius: 8, overflow: 'hidden' }}>
              {person.photoUrl ? (
                <Image src={person.photoUrl} alt={t('gate.person.photo', { name })} h={220} w={180} fit="cover" />
              ) : (
                <Center h="100%" bg="rgba(255,255,255,0.15)" aria-label={t('gate.person.noPhoto')} role="img">
                  <IconUser size={96} aria-hidden />
                </Center>
              )}
            </Box>
          )}
          <Stack gap="xs" style={{ minWidth: 0 }}>
            <Title order={2} style={{ fontSize: '3.5rem', lineHeight: 1.1, color: fg }}>
              {verdict}
            </Title>
            <Text style={{ fontSize: '1.75rem', lineHeight: 1.25 }} fw={600}>
              {shown.message}
            </Text>
            {person && (
              <>
                <Text style={{ fontSize: '2rem' }} fw={700}>
                  {name}
                </Text>
                {person.groups && person.groups.length > 0 && (
                  <Text size="xl">
                    {t('gate.person.groups')}: {person.groups.map((g) => g.name).join(', ')}
                  </Text>
                )}
                <Text size="lg">
                  {t('gate.person.code')}: {person.bc}
                </Text>
                {showCredit && (
                  <Text size="lg">
                    {person.isUnlimited
                      ? t('gate.person.unlimited')
                      : t('gate.person.credit', { credit: person.credit })}
                  </Text>
                )}
              </>
            )}
          </Stack>
        </Group>
      );
    }
  }
}
