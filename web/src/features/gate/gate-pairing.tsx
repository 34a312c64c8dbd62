import { Alert, Button, Center, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { gateApi, gateUid, setGateToken } from '../../api/gate';
import { GateLanguageSelect, gateErrorText } from './gate-shared';

/**
 * The unpaired gate: a full-screen page asking for the pairing code (`bc` of /device/settings),
 * scanned by a keyboard-wedge scanner into the focused field or typed; a name is optional. The
 * browser's device uid is generated once and kept, so pairing again replaces this gate's token.
 */
export function GatePairing({ onPaired, notice = null }: { onPaired: () => void; notice?: string | null }) {
  const { t } = useTranslation();
  const [code, setCode] = useState('');
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const codeRef = useRef<HTMLInputElement>(null);
  const uid = useRef(gateUid()).current;

  useEffect(() => codeRef.current?.focus(), []);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const value = code.trim();
    if (!value || busy) return;
    setBusy(true);
    setError(null);
    try {
      const paired = await gateApi.pair(value, name.trim());
      setGateToken(paired.token);
      onPaired();
    } catch (failure) {
      setError(gateErrorText(t, failure));
      setCode('');
      codeRef.current?.focus();
    } finally {
      setBusy(false);
    }
  };

  return (
    <Center mih="100vh" p="md" bg="var(--mantine-color-gray-light)">
      <Paper withBorder shadow="sm" p="xl" w="100%" maw={520} radius="md" component="main">
        <form onSubmit={submit} noValidate>
          <Stack gap="md">
            <Title order={1} size="h2" ta="center">
              {t('gate.pair.title')}
            </Title>
            {notice && (
              <Alert color="orange" role="alert">
                {t(notice)}
              </Alert>
            )}
            <Text ta="center">{t('gate.pair.intro')}</Text>
            <TextInput
              ref={codeRef}
              label={t('gate.pair.code')}
              value={code}
              onChange={(e) => setCode(e.currentTarget.value)}
              autoComplete="off"
              spellCheck={false}
              size="lg"
              required
            />
            <TextInput
              label={t('gate.pair.name')}
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              maxLength={255}
            />
            {error && (
              <Alert color="red" role="alert">
                {error}
              </Alert>
            )}
            <Button type="submit" size="lg" loading={busy}>
              {t('gate.pair.submit')}
            </Button>
            <GateLanguageSelect />
            <Text size="xs" c="dimmed" ta="center">
              {t('gate.pair.uid', { uid })}
            </Text>
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}
