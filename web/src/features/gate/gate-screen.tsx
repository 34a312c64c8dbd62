import { reasonMessage } from '@accredo/access';
import {
  Alert,
  Badge,
  Box,
  Button,
  Group,
  NumberInput,
  Paper,
  SegmentedControl,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { localized } from '../../api/action';
import { isApiError } from '../../api/client';
import {
  GATE_STORAGE,
  type GateConfig,
  type GateDirection,
  type GateNetwork,
  type GateScanAnswer,
  GateUnreachableError,
  gateApi,
  setGateToken,
} from '../../api/gate';
import { readStorage, writeStorage } from '../../api/storage';
import { CameraScanner } from '../accreditation/detail/camera-scanner';
import { beep } from './beep';
import { GateDecision, type Shown } from './gate-decision';
import { GateLanguageSelect, gateErrorText } from './gate-shared';
import type { StationConnection, StationEvent } from './station-events';

/** A decision stays on the screen this long, then the screen is ready for the next person. */
export const DECISION_SHOWN_MS = 5000;
/** The codes of GET device/key: scanned here, they unpair (bcClear) or pair again (bc). */
const CLEAR_CODE = /^ACCREDO-CLEAR\./;
const PAIR_CODE = /^ACCREDO-PAIR\./;

export const GATE_CONFIG_KEY = ['gate', 'config'] as const;

export interface GateScreenProps {
  /** the token is gone (unpaired here, or refused by the server) */
  onUnpaired: () => void;
  /** timeouts and retries of a scan (tests shorten them) */
  network?: GateNetwork;
  /** the Accredo Station serving this screen: its readers' scans and decisions are shown too */
  station?: StationConnection | null;
}

const NOT_TEXT = new Set(['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color', 'file', 'image']);
/** A field that takes typed text (the amount, a name): keys pressed there stay there. */
const isTextEntry = (el: Element | null) =>
  (el instanceof HTMLInputElement && !NOT_TEXT.has(el.type)) || el instanceof HTMLTextAreaElement;

/**
 * The paired gate (issue 11 "The gate screen in the browser"): codes from a keyboard-wedge
 * scanner (fast keystrokes ending with Enter into an always re-focused field), typed, or read by
 * the check page's camera scanner; each scan is one POST scan with a fresh nonce. The decision is
 * shown big and coloured with the person and the reason in the operator's language, with a sound,
 * and clears itself for the next scan. Direction (F2), amount in mode 2, a session counter.
 */
export function GateScreen({ onUnpaired, network, station }: GateScreenProps) {
  const { t, i18n } = useTranslation();
  // a gate still waiting for its template asks more often, so it is ready soon after the admin assigns one
  const config = useQuery({
    queryKey: GATE_CONFIG_KEY,
    queryFn: gateApi.config,
    refetchInterval: (query) => (query.state.data?.screen.configured === false ? 10_000 : 60_000),
  });
  const screen = config.data?.screen;
  const directions: GateDirection[] = screen?.directions?.length ? screen.directions : ['entry', 'exit'];
  const [chosen, setChosen] = useState<GateDirection>(() =>
    readStorage(GATE_STORAGE.direction) === 'exit' ? 'exit' : 'entry',
  );
  const direction = directions.includes(chosen) ? chosen : directions[0];
  const [amount, setAmount] = useState<string | number>('');
  const [code, setCode] = useState('');
  const [shown, setShown] = useState<Shown>({ kind: 'ready' });
  const [counts, setCounts] = useState({ count: 0, allowed: 0, refused: 0 });
  const [camera, setCamera] = useState(() => readStorage(GATE_STORAGE.camera) === '1');
  const [confirmUnpair, setConfirmUnpair] = useState(false);
  const [unpairing, setUnpairing] = useState(false);
  const [unpairError, setUnpairError] = useState<string | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const queue = useRef<Promise<void>>(Promise.resolve());
  const clearTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const mounted = useRef(true);

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      clearTimeout(clearTimer.current);
    };
  }, []);

  const focusInput = useCallback(() => {
    if (!mounted.current) return;
    const active = document.activeElement;
    if (active !== inputRef.current && isTextEntry(active)) return;
    inputRef.current?.focus();
  }, []);

  const show = useCallback((next: Shown, clearAfter: boolean) => {
    if (!mounted.current) return;
    clearTimeout(clearTimer.current);
    setShown(next);
    if (clearAfter)
      clearTimer.current = setTimeout(() => {
        if (mounted.current) setShown({ kind: 'ready' });
      }, DECISION_SHOWN_MS);
  }, []);

  const chooseDirection = useCallback((value: GateDirection) => {
    setChosen(value);
    writeStorage(GATE_STORAGE.direction, value);
  }, []);

  // F2 switches the direction from anywhere; a scanner's keystrokes go to the code field unless the
  // operator is typing in another text field (a toggle, button or the language select keeps none)
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'F2') {
        event.preventDefault();
        if (directions.length > 1) chooseDirection(direction === 'entry' ? 'exit' : 'entry');
        return;
      }
      if (event.key.length === 1 && event.key !== ' ' && !event.ctrlKey && !event.metaKey && !event.altKey) {
        if (!isTextEntry(document.activeElement)) inputRef.current?.focus();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [direction, directions.length, chooseDirection]);

  const explain = (answer: GateScanAnswer, cfg: GateConfig | undefined): string => {
    const fieldId = (answer.data as { fieldId?: unknown } | undefined)?.fieldId;
    const field = cfg?.fields?.find((f) => f.id === fieldId);
    const fieldName = field ? (field.label && localized(field.label, i18n.language)) || field.name : null;
    try {
      return reasonMessage(
        {
          allowed: answer.allowed,
          reason: answer.reason,
          data: answer.data,
          info: answer.info,
          effects: answer.effects,
        },
        i18n.language,
        { zone: cfg?.zone?.name ?? null, field: fieldName },
      );
    } catch {
      return answer.message;
    }
  };

  const run = async (value: string, dir: GateDirection, amt: number | null) => {
    show({ kind: 'checking', code: value }, false);
    if (CLEAR_CODE.test(value) || PAIR_CODE.test(value)) {
      try {
        if (CLEAR_CODE.test(value)) {
          await gateApi.unpair(value);
          setGateToken(null);
          onUnpaired();
        } else {
          const paired = await gateApi.pair(value, config.data?.device.name ?? '');
          setGateToken(paired.token);
          await config.refetch();
          show({ kind: 'paired' }, true);
        }
      } catch (error) {
        show({ kind: 'failed', code: value, message: gateErrorText(t, error) }, true);
        beep('refused');
      }
      return;
    }
    try {
      const answer = await gateApi.scan({ code: value, direction: dir, amount: amt }, network);
      if (!mounted.current) return;
      setCounts((c) => ({
        count: c.count + 1,
        allowed: c.allowed + (answer.allowed ? 1 : 0),
        refused: c.refused + (answer.allowed ? 0 : 1),
      }));
      show({ kind: 'decision', code: value, answer, message: explain(answer, config.data) }, true);
      beep(answer.allowed ? (answer.info ? 'info' : 'allowed') : 'refused');
      // the admin gave this device a template (or took it away) since the configuration was read
      if ((answer.reason === 'DEVICE_NOT_CONFIGURED') === Boolean(config.data?.screen.configured))
        void config.refetch();
    } catch (error) {
      if (error instanceof GateUnreachableError) {
        // stays until the next scan: the operator must know this person was not checked
        show({ kind: 'unreachable', code: value }, false);
      } else {
        show({ kind: 'failed', code: value, message: gateErrorText(t, error) }, true);
      }
      beep('refused');
    }
  };

  // a station's hardware readers: their codes are decided at the station and shown here the same way
  const onStationEvent = useRef<(event: StationEvent) => void>(() => undefined);
  onStationEvent.current = (event) => {
    if (event.type === 'scan') show({ kind: 'checking', code: event.data.code }, false);
    else if (event.type === 'paired') void config.refetch();
    else if (event.type === 'failed') {
      const key = `errors.${event.data.error}`;
      const message = t(key) === key ? event.data.message : t(key);
      show({ kind: 'failed', code: event.data.code, message }, true);
      beep('refused');
    } else if (event.type === 'decision') {
      const { answer, code: value } = event.data;
      setCounts((c) => ({
        count: c.count + 1,
        allowed: c.allowed + (answer.allowed ? 1 : 0),
        refused: c.refused + (answer.allowed ? 0 : 1),
      }));
      show({ kind: 'decision', code: value, answer, message: explain(answer, config.data) }, true);
      beep(answer.allowed ? (answer.info ? 'info' : 'allowed') : 'refused');
    }
  };
  const subscribe = station?.subscribe;
  useEffect(() => subscribe?.((event) => onStationEvent.current(event)), [subscribe]);

  /** Scans are decided one after another, each with the direction and amount of its moment. */
  const submit = (raw: string) => {
    const value = raw.trim();
    if (!value) return;
    const amt = screen?.askAmount && amount !== '' && Number.isFinite(Number(amount)) ? Number(amount) : null;
    const dir = direction;
    queue.current = queue.current.then(() => run(value, dir, amt)).catch(() => undefined);
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    submit(code);
    setCode('');
    inputRef.current?.focus();
  };

  /**
   * The Unpair button: the server revokes this gate's token first (a token only forgotten here
   * would still work for whoever copied it). A token the server no longer knows is unpaired anyway;
   * when the server cannot be reached the operator may forget the pairing here only. At a station
   * the station revokes its own token on the server and forgets it (GatePage → POST /api/station/v1/forget).
   */
  const unpair = async (localOnly = false) => {
    if (!station && !localOnly) {
      setUnpairing(true);
      setUnpairError(null);
      try {
        await gateApi.unpairSelf();
      } catch (error) {
        if (!(isApiError(error) && error.status === 401)) {
          if (mounted.current) {
            setUnpairError(gateErrorText(t, error));
            setUnpairing(false);
          }
          return;
        }
      }
    }
    setGateToken(null);
    onUnpaired();
  };

  const template = config.data?.template ?? null;
  const action = config.data?.action ?? null;
  const actionName = action
    ? typeof action.name === 'string'
      ? action.name
      : localized(action.name as Record<string, string>, i18n.language)
    : null;

  return (
    <Box
      component="main"
      mih="100vh"
      p="md"
      style={{ display: 'flex', flexDirection: 'column', gap: 'var(--mantine-spacing-md)' }}
    >
      <Group justify="space-between" align="flex-start" wrap="wrap">
        <Stack gap={2}>
          <Title order={1} size="h3">
            {t('gate.title')}
            {config.data?.device.name ? `: ${config.data.device.name}` : ''}
          </Title>
          {config.data && (
            <Group gap="lg" component="dl" style={{ margin: 0 }}>
              <ConfigItem label={t('gate.config.template')} value={template?.name ?? t('gate.config.none')} />
              <ConfigItem
                label={t('gate.config.mode')}
                value={screen?.mode ? t(`gate.mode.${screen.mode}`) : t('gate.config.none')}
              />
              <ConfigItem label={t('gate.config.action')} value={actionName || t('gate.config.none')} />
              {config.data.zone && <ConfigItem label={t('gate.config.zone')} value={config.data.zone.name} />}
            </Group>
          )}
        </Stack>
        <Group align="flex-end" gap="sm">
          <GateLanguageSelect />
          <Switch
            label={t('gate.camera')}
            checked={camera}
            onChange={(e) => {
              const on = e.currentTarget.checked;
              setCamera(on);
              writeStorage(GATE_STORAGE.camera, on ? '1' : null);
            }}
          />
          <Button variant="default" onClick={() => void config.refetch()}>
            {t('gate.config.reload')}
          </Button>
          <Button variant="light" color="red" onClick={() => setConfirmUnpair(true)}>
            {t('gate.unpair')}
          </Button>
        </Group>
      </Group>

      {confirmUnpair && (
        <Alert color="red" title={t('gate.unpair')} role="alertdialog" aria-label={t('gate.unpair')}>
          <Stack gap="sm">
            <Text>{t('gate.unpairConfirm')}</Text>
            {unpairError && (
              <Text role="alert" fw={500}>
                {t('gate.unpairFailed', { message: unpairError })}
              </Text>
            )}
            <Group>
              <Button color="red" loading={unpairing} onClick={() => void unpair()}>
                {t('gate.unpairYes')}
              </Button>
              {unpairError && (
                <Button color="red" variant="outline" onClick={() => void unpair(true)}>
                  {t('gate.unpairLocal')}
                </Button>
              )}
              <Button
                variant="default"
                onClick={() => {
                  setConfirmUnpair(false);
                  setUnpairError(null);
                  inputRef.current?.focus();
                }}
              >
                {t('gate.cancel')}
              </Button>
            </Group>
          </Stack>
        </Alert>
      )}
      {config.isError && (
        <Alert color="orange" role="alert">
          {t('gate.config.loadError')}
        </Alert>
      )}
      {config.data && !screen?.configured && (
        <Alert color="yellow" role="alert">
          {t('gate.config.notConfigured')}
        </Alert>
      )}

      <GateDecision shown={shown} showCredit={screen?.mode === 2} />

      <Paper withBorder p="md" radius="md">
        <form onSubmit={onSubmit} noValidate>
          <Group align="flex-end" wrap="wrap" gap="md">
            <TextInput
              ref={inputRef}
              label={t('gate.code')}
              description={t('gate.scanHint')}
              value={code}
              onChange={(e) => setCode(e.currentTarget.value)}
              onBlur={(e) => {
                // back to the code field unless the operator moved to another control
                if (!e.relatedTarget) setTimeout(focusInput, 0);
              }}
              autoFocus
              autoComplete="off"
              spellCheck={false}
              size="xl"
              style={{ flex: '1 1 20rem' }}
            />
            {screen?.askAmount && (
              <NumberInput
                label={t('gate.amount')}
                value={amount}
                onChange={setAmount}
                allowDecimal={false}
                allowNegative={false}
                min={1}
                size="xl"
                w={200}
              />
            )}
            <Button type="submit" size="xl">
              {t('gate.check')}
            </Button>
          </Group>
        </form>
        <Group justify="space-between" mt="md" wrap="wrap">
          {directions.length > 1 ? (
            <Stack gap={4}>
              <Text size="sm" fw={500} id="gate-direction-label">
                {t('gate.direction.label')}
              </Text>
              <SegmentedControl
                aria-labelledby="gate-direction-label"
                size="xl"
                value={direction}
                onChange={(value) => {
                  chooseDirection(value as GateDirection);
                  setTimeout(focusInput, 0);
                }}
                color={direction === 'entry' ? 'green' : 'blue'}
                data={directions.map((value) => ({ value, label: t(`gate.direction.${value}`) }))}
              />
            </Stack>
          ) : (
            <span />
          )}
          <Badge size="xl" variant="light" aria-live="off">
            {t('gate.counter', counts)}
          </Badge>
        </Group>
      </Paper>

      {camera && <CameraScanner onCode={submit} paused={shown.kind === 'checking'} />}
    </Box>
  );
}

function ConfigItem({ label, value }: { label: string; value: string }) {
  return (
    <Group gap={4}>
      <Text component="dt" size="sm" c="dimmed">
        {label}:
      </Text>
      <Text component="dd" size="sm" fw={500} m={0}>
        {value}
      </Text>
    </Group>
  );
}
