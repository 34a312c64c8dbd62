import {
  ActionIcon,
  Alert,
  Anchor,
  Autocomplete,
  Button,
  Checkbox,
  Container,
  Fieldset,
  Group,
  NumberInput,
  PasswordInput,
  Select,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import type { TFunction } from 'i18next';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useRouteTitle } from '../../app/document-title';

/**
 * `/gate/settings` (issue 12): the station's settings screen, shown only when the page is served by
 * an Accredo Station (its local API answers `GET /api/station/v1/settings`; served by the server
 * that is a 404 and the screen says so). Saved with `PUT …/settings` (the station validates, saves
 * atomically and reopens its readers and relay); the relay and printer test buttons; the station
 * PIN (x-station-pin) when one is set. API: desktop/src/core/settings-api.ts.
 */
export const STATION_SETTINGS_URL = '/api/station/v1/settings';
const API = '/api/station/v1/';

type Direction = '' | 'entry' | 'exit';

interface SerialReaderForm {
  id: string;
  type: 'serial';
  path: string;
  baudRate: number;
  terminator: string;
  prefix: string;
  suffix: string;
  direction: Direction;
}
interface HidReaderForm {
  id: string;
  type: 'hid';
  vendorId: string;
  productId: string;
  format: 'auto' | 'keyboard' | 'pos';
  direction: Direction;
}
type ReaderForm = SerialReaderForm | HidReaderForm;

interface RelayForm {
  type: '' | 'serial' | 'http';
  path: string;
  baudRate: number;
  openHex: string;
  closeHex: string;
  url: string;
  method: 'GET' | 'POST' | 'PUT';
  pulseMs: number;
}

interface SettingsForm {
  server: string;
  language: 'cs' | 'sk' | 'en' | 'de';
  direction: 'entry' | 'exit';
  kiosk: boolean;
  readers: ReaderForm[];
  relay: RelayForm;
  printer: string;
  copies: number;
  printOnScan: boolean;
}

/** The settings as the station answers them (config.ts StationConfig, `pin` replaced by `pinSet`). */
interface StationSettings {
  server: { url: string | null };
  language: SettingsForm['language'];
  direction: 'entry' | 'exit';
  kiosk: boolean;
  readers: Record<string, unknown>[];
  relay: Record<string, unknown> | null;
  printer: { name: string; copies: number; printOnScan: boolean } | null;
  pinSet: boolean;
  [other: string]: unknown;
}

interface FieldError {
  path: string;
  key?: string;
  message?: string;
}

const hex4 = (value: unknown) =>
  typeof value === 'number' ? `0x${value.toString(16).padStart(4, '0')}` : String(value ?? '');
const str = (value: unknown) => (typeof value === 'string' ? value : '');

function toForm(s: StationSettings): SettingsForm {
  const relay = s.relay ?? {};
  return {
    server: s.server.url ?? '',
    language: s.language,
    direction: s.direction,
    kiosk: s.kiosk,
    readers: s.readers.map((r) =>
      r.type === 'hid'
        ? {
            id: str(r.id),
            type: 'hid',
            vendorId: hex4(r.vendorId),
            productId: hex4(r.productId),
            format: (r.format as HidReaderForm['format']) ?? 'auto',
            direction: (r.direction as Direction) ?? '',
          }
        : {
            id: str(r.id),
            type: 'serial',
            path: str(r.path),
            baudRate: Number(r.baudRate ?? 9600),
            terminator: str(r.terminator) || 'CR',
            prefix: str(r.prefix),
            suffix: str(r.suffix),
            direction: (r.direction as Direction) ?? '',
          },
    ),
    relay: {
      type: (s.relay?.type as RelayForm['type']) ?? '',
      path: str(relay.path),
      baudRate: Number(relay.baudRate ?? 9600),
      openHex: str(relay.openHex),
      closeHex: str(relay.closeHex),
      url: str(relay.url),
      method: (relay.method as RelayForm['method']) ?? 'GET',
      pulseMs: Number(relay.pulseMs ?? 500),
    },
    printer: s.printer?.name ?? '',
    copies: s.printer?.copies ?? 1,
    printOnScan: s.printer?.printOnScan ?? false,
  };
}

/** The form back into station.json's shape; what the form does not edit is kept from `loaded`. */
function toBody(f: SettingsForm, loaded: StationSettings): Record<string, unknown> {
  const { pinSet: _pinSet, ...rest } = loaded;
  const keep = (loaded.relay?.type === f.relay.type ? loaded.relay : {}) ?? {};
  const optional = (value: string) => (value === '' ? undefined : value);
  return {
    ...rest,
    server: { url: f.server.trim() || null },
    language: f.language,
    direction: f.direction,
    kiosk: f.kiosk,
    readers: f.readers.map((r) =>
      r.type === 'serial'
        ? {
            id: r.id.trim(),
            type: 'serial',
            path: r.path,
            baudRate: r.baudRate,
            terminator: r.terminator,
            prefix: optional(r.prefix),
            suffix: optional(r.suffix),
            direction: optional(r.direction),
          }
        : {
            id: r.id.trim(),
            type: 'hid',
            vendorId: r.vendorId.trim(),
            productId: r.productId.trim(),
            format: r.format,
            direction: optional(r.direction),
          },
    ),
    relay:
      f.relay.type === 'serial'
        ? {
            type: 'serial',
            path: f.relay.path,
            baudRate: f.relay.baudRate,
            openHex: f.relay.openHex,
            closeHex: f.relay.closeHex,
            pulseMs: f.relay.pulseMs,
          }
        : f.relay.type === 'http'
          ? { ...keep, type: 'http', url: f.relay.url, method: f.relay.method, pulseMs: f.relay.pulseMs }
          : null,
    printer: f.printer ? { name: f.printer, copies: f.copies, printOnScan: f.printOnScan } : null,
  };
}

async function call<T>(
  method: string,
  what: string,
  pin: string,
  body?: unknown,
): Promise<{ ok: true; data: T } | { ok: false; code: string; message: string; details: FieldError[] }> {
  try {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (pin) headers['x-station-pin'] = pin;
    const response = await fetch(`${API}${what}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await response.json().catch(() => null)) as {
      data?: T;
      error?: { code?: string; message?: string; details?: unknown };
    } | null;
    if (response.ok && json && json.data !== undefined) return { ok: true, data: json.data };
    return {
      ok: false,
      code: json?.error?.code ?? `HTTP_${response.status}`,
      message: json?.error?.message ?? `HTTP ${response.status}`,
      details: Array.isArray(json?.error?.details) ? (json.error.details as FieldError[]) : [],
    };
  } catch (error) {
    return { ok: false, code: 'NETWORK_ERROR', message: (error as Error).message, details: [] };
  }
}

function errorText(t: TFunction, error: FieldError): string {
  if (error.key && error.key !== 'basics.invalidValue') {
    const text = t(error.key);
    if (text !== error.key) return text;
  }
  return error.message ? `${t('basics.invalidValue')}: ${error.message}` : t('basics.invalidValue');
}

const TERMINATORS = ['CR', 'LF', 'CRLF', 'TAB', 'ETX'];
/** The "none" choice of a select (Mantine's options need a non-empty value). */
const NONE = '-';
const fromNone = (value: string | null) => (!value || value === NONE ? '' : value);

export function StationSettingsPage() {
  const { t } = useTranslation();
  useRouteTitle('gate.settings.title');
  const [loaded, setLoaded] = useState<StationSettings | null>(null);
  const [missing, setMissing] = useState(false);
  const [form, setForm] = useState<SettingsForm | null>(null);
  const [ports, setPorts] = useState<{ path: string; manufacturer: string | null }[]>([]);
  const [hid, setHid] = useState<{ vendorId: number; productId: number; product: string | null }[]>([]);
  const [printers, setPrinters] = useState<{ name: string; isDefault: boolean }[] | null>(null);
  const [printersError, setPrintersError] = useState<string | null>(null);
  const [pin, setPin] = useState('');
  const [newPin, setNewPin] = useState('');
  const [removePin, setRemovePin] = useState(false);
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [failure, setFailure] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const [saving, setSaving] = useState(false);
  const [relayTest, setRelayTest] = useState<{ ok: boolean; text: string } | null>(null);
  const [printTest, setPrintTest] = useState<{ ok: boolean; text: string } | null>(null);

  useEffect(() => {
    let alive = true;
    void (async () => {
      const settings = await call<StationSettings>('GET', 'settings', '');
      if (!alive) return;
      if (!settings.ok) return setMissing(true);
      setLoaded(settings.data);
      setForm(toForm(settings.data));
      const [p, h, pr] = await Promise.all([
        call<{ path: string; manufacturer: string | null }[]>('GET', 'ports', ''),
        call<{ vendorId: number; productId: number; product: string | null }[]>('GET', 'hid', ''),
        call<{ name: string; isDefault: boolean }[]>('GET', 'printers', ''),
      ]);
      if (!alive) return;
      if (p.ok) setPorts(p.data);
      if (h.ok) setHid(h.data);
      if (pr.ok) setPrinters(pr.data);
      else setPrintersError(pr.message);
    })();
    return () => {
      alive = false;
    };
  }, []);

  if (missing)
    return (
      <Container size="sm" py="xl">
        <Alert color="gray" title={t('gate.settings.title')}>
          {t('gate.settings.notStation')}
        </Alert>
        <Anchor component={Link} to="/gate" mt="md" display="inline-block">
          {t('gate.settings.back')}
        </Anchor>
      </Container>
    );
  if (!form || !loaded) return <Text p="xl">{t('gate.settings.loading')}</Text>;

  const update = (patch: Partial<SettingsForm>) => {
    setSaved(false);
    setForm({ ...form, ...patch });
  };
  const updateReader = (index: number, patch: Partial<SerialReaderForm> | Partial<HidReaderForm>) =>
    update({ readers: form.readers.map((r, i) => (i === index ? ({ ...r, ...patch } as ReaderForm) : r)) });
  const updateRelay = (patch: Partial<RelayForm>) => update({ relay: { ...form.relay, ...patch } });
  const err = (path: string) => {
    const found = errors.find((e) => e.path === path || e.path.startsWith(`${path}.`));
    return found ? errorText(t, found) : undefined;
  };
  const nextId = () => {
    let n = form.readers.length + 1;
    while (form.readers.some((r) => r.id === `reader${n}`)) n += 1;
    return `reader${n}`;
  };
  const directionData = [
    { value: NONE, label: t('gate.settings.directionStation') },
    { value: 'entry', label: t('gate.direction.entry') },
    { value: 'exit', label: t('gate.direction.exit') },
  ];
  const portData = [...new Set([...ports.map((p) => p.path)])];

  const failed = (result: { code: string; message: string; details: FieldError[] }) => {
    setErrors(result.details);
    const code = `errors.${result.code}`;
    const text = t(code);
    setFailure(text === code ? result.message : text);
  };

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    setSaved(false);
    setFailure(null);
    const body: Record<string, unknown> = toBody(form, loaded);
    if (removePin) body.newPin = null;
    else if (newPin) body.newPin = newPin;
    const result = await call<StationSettings>('PUT', 'settings', pin, body);
    setSaving(false);
    if (!result.ok) return failed(result);
    setErrors([]);
    setLoaded(result.data);
    setForm(toForm(result.data));
    if (newPin && !removePin) setPin(newPin);
    if (removePin) setPin('');
    setNewPin('');
    setRemovePin(false);
    setSaved(true);
  };

  const testRelay = async () => {
    setRelayTest(null);
    const result = await call<{ ok: boolean; message: string | null }>('POST', 'relay/test', pin);
    if (!result.ok) {
      const detail = result.details[0];
      return setRelayTest({ ok: false, text: detail ? errorText(t, detail) : result.message });
    }
    setRelayTest(
      result.data.ok
        ? { ok: true, text: t('gate.settings.relayTestOk') }
        : { ok: false, text: t('gate.settings.relayTestFailed', { message: result.data.message ?? '' }) },
    );
  };

  const testPrint = async () => {
    setPrintTest(null);
    const result = await call<{ jobId: string }>('POST', 'print/test', pin, { printer: form.printer || undefined });
    if (!result.ok) {
      const detail = result.details[0];
      return setPrintTest({
        ok: false,
        text: detail ? errorText(t, detail) : t('gate.settings.printTestFailed', { message: result.message }),
      });
    }
    setPrintTest({ ok: true, text: t('gate.settings.printTestOk', { job: result.data.jobId }) });
  };

  return (
    <Container size="md" py="md">
      <form onSubmit={save} noValidate>
        <Stack gap="md">
          <Group justify="space-between">
            <Title order={2}>{t('gate.settings.title')}</Title>
            <Anchor component={Link} to="/gate">
              {t('gate.settings.back')}
            </Anchor>
          </Group>
          {failure && (
            <Alert color="red" title={t('gate.settings.saveFailed')}>
              {failure}
            </Alert>
          )}
          {saved && (
            <Alert color="green" role="status">
              {t('gate.settings.saved')}
            </Alert>
          )}
          {loaded.pinSet && (
            <PasswordInput
              label={t('gate.settings.pin')}
              description={t('gate.settings.pinHint')}
              value={pin}
              onChange={(e) => setPin(e.currentTarget.value)}
              error={err('pin')}
              autoComplete="off"
            />
          )}

          <Fieldset legend={t('gate.settings.general')}>
            <Stack gap="sm">
              <TextInput
                label={t('gate.settings.server')}
                placeholder="https://accredo.example.com"
                value={form.server}
                onChange={(e) => update({ server: e.currentTarget.value })}
                error={err('server')}
              />
              <Group grow>
                <Select
                  label={t('gate.settings.language')}
                  data={(['cs', 'sk', 'en', 'de'] as const).map((value) => ({ value, label: t(`lang.${value}`) }))}
                  value={form.language}
                  onChange={(value) => value && update({ language: value as SettingsForm['language'] })}
                  allowDeselect={false}
                  error={err('language')}
                />
                <Select
                  label={t('gate.settings.direction')}
                  data={directionData.slice(1)}
                  value={form.direction}
                  onChange={(value) => value && update({ direction: value as 'entry' | 'exit' })}
                  allowDeselect={false}
                  error={err('direction')}
                />
              </Group>
              <Switch
                label={t('gate.settings.kiosk')}
                checked={form.kiosk}
                onChange={(e) => update({ kiosk: e.currentTarget.checked })}
              />
            </Stack>
          </Fieldset>

          <Fieldset legend={t('gate.settings.readers')}>
            <Stack gap="sm">
              {form.readers.length === 0 && <Text c="dimmed">{t('gate.settings.noReaders')}</Text>}
              {form.readers.map((reader, index) => {
                const at = `readers.${index}`;
                return (
                  <Fieldset
                    // biome-ignore lint/suspicious/noArrayIndexKey: readers are edited in place, ids may change
                    key={index}
                    legend={t(reader.type === 'serial' ? 'gate.settings.serialReader' : 'gate.settings.hidReader')}
                    aria-label={t('gate.settings.readerN', { n: index + 1 })}
                  >
                    <Stack gap="xs">
                      <Group grow align="flex-start">
                        <TextInput
                          label={t('gate.settings.readerId')}
                          value={reader.id}
                          onChange={(e) => updateReader(index, { id: e.currentTarget.value })}
                          error={err(`${at}.id`)}
                        />
                        <Select
                          label={t('gate.settings.readerDirection')}
                          data={directionData}
                          value={reader.direction || NONE}
                          onChange={(value) => updateReader(index, { direction: fromNone(value) as Direction })}
                          allowDeselect={false}
                        />
                      </Group>
                      {reader.type === 'serial' ? (
                        <>
                          <Group grow align="flex-start">
                            <Autocomplete
                              label={t('gate.settings.port')}
                              data={portData}
                              value={reader.path}
                              onChange={(value) => updateReader(index, { path: value })}
                              error={err(`${at}.path`)}
                            />
                            <NumberInput
                              label={t('gate.settings.baudRate')}
                              value={reader.baudRate}
                              onChange={(value) => updateReader(index, { baudRate: Number(value) })}
                              error={err(`${at}.baudRate`)}
                            />
                          </Group>
                          <Group grow align="flex-start">
                            <Autocomplete
                              label={t('gate.settings.terminator')}
                              data={TERMINATORS}
                              value={reader.terminator}
                              onChange={(value) => updateReader(index, { terminator: value })}
                              error={err(`${at}.terminator`)}
                            />
                            <TextInput
                              label={t('gate.settings.prefix')}
                              value={reader.prefix}
                              onChange={(e) => updateReader(index, { prefix: e.currentTarget.value })}
                            />
                            <TextInput
                              label={t('gate.settings.suffix')}
                              value={reader.suffix}
                              onChange={(e) => updateReader(index, { suffix: e.currentTarget.value })}
                            />
                          </Group>
                        </>
                      ) : (
                        <>
                          <Select
                            label={t('gate.settings.hidDevice')}
                            placeholder={t(hid.length ? 'gate.settings.hidChoose' : 'gate.settings.hidNone')}
                            data={hid.map((d) => ({
                              value: `${hex4(d.vendorId)}:${hex4(d.productId)}`,
                              label: `${d.product ?? '?'} (${hex4(d.vendorId)}:${hex4(d.productId)})`,
                            }))}
                            value={`${reader.vendorId}:${reader.productId}`}
                            onChange={(value) => {
                              if (!value) return;
                              const [vendorId, productId] = value.split(':');
                              updateReader(index, { vendorId, productId });
                            }}
                          />
                          <Group grow align="flex-start">
                            <TextInput
                              label={t('gate.settings.vendorId')}
                              value={reader.vendorId}
                              onChange={(e) => updateReader(index, { vendorId: e.currentTarget.value })}
                              error={err(`${at}.vendorId`)}
                            />
                            <TextInput
                              label={t('gate.settings.productId')}
                              value={reader.productId}
                              onChange={(e) => updateReader(index, { productId: e.currentTarget.value })}
                              error={err(`${at}.productId`)}
                            />
                            <Select
                              label={t('gate.settings.hidFormat')}
                              data={(['auto', 'keyboard', 'pos'] as const).map((value) => ({
                                value,
                                label: t(`gate.settings.format.${value}`),
                              }))}
                              value={reader.format}
                              onChange={(value) =>
                                value && updateReader(index, { format: value as HidReaderForm['format'] })
                              }
                              allowDeselect={false}
                            />
                          </Group>
                        </>
                      )}
                      <Group justify="flex-end">
                        <ActionIcon
                          variant="subtle"
                          color="red"
                          aria-label={t('gate.settings.removeReader', { id: reader.id })}
                          onClick={() => update({ readers: form.readers.filter((_, i) => i !== index) })}
                        >
                          <IconTrash size={18} />
                        </ActionIcon>
                      </Group>
                    </Stack>
                  </Fieldset>
                );
              })}
              <Group>
                <Button
                  variant="light"
                  onClick={() =>
                    update({
                      readers: [
                        ...form.readers,
                        {
                          id: nextId(),
                          type: 'serial',
                          path: portData[0] ?? '',
                          baudRate: 9600,
                          terminator: 'CR',
                          prefix: '',
                          suffix: '',
                          direction: '',
                        },
                      ],
                    })
                  }
                >
                  {t('gate.settings.addSerial')}
                </Button>
                <Button
                  variant="light"
                  onClick={() =>
                    update({
                      readers: [
                        ...form.readers,
                        {
                          id: nextId(),
                          type: 'hid',
                          vendorId: hid[0] ? hex4(hid[0].vendorId) : '',
                          productId: hid[0] ? hex4(hid[0].productId) : '',
                          format: 'auto',
                          direction: '',
                        },
                      ],
                    })
                  }
                >
                  {t('gate.settings.addHid')}
                </Button>
              </Group>
            </Stack>
          </Fieldset>

          <Fieldset legend={t('gate.settings.printer')}>
            <Stack gap="sm">
              <Group grow align="flex-start">
                <Select
                  label={t('gate.settings.printerName')}
                  data={[
                    { value: NONE, label: t('gate.settings.printerNone') },
                    ...(printers ?? []).map((p) => ({
                      value: p.name,
                      label: p.isDefault ? `${p.name} (${t('gate.settings.printerDefault')})` : p.name,
                    })),
                    ...(form.printer && !(printers ?? []).some((p) => p.name === form.printer)
                      ? [{ value: form.printer, label: form.printer }]
                      : []),
                  ]}
                  value={form.printer || NONE}
                  onChange={(value) => update({ printer: fromNone(value) })}
                  allowDeselect={false}
                  error={err('printer')}
                  description={
                    printersError ? t('gate.settings.printersFailed', { message: printersError }) : undefined
                  }
                />
                <NumberInput
                  label={t('gate.settings.copies')}
                  min={1}
                  max={99}
                  value={form.copies}
                  onChange={(value) => update({ copies: Number(value) })}
                  error={err('printer.copies')}
                />
              </Group>
              <Checkbox
                label={t('gate.settings.printOnScan')}
                checked={form.printOnScan}
                disabled={!form.printer}
                onChange={(e) => update({ printOnScan: e.currentTarget.checked })}
              />
              <Group>
                <Button variant="default" onClick={testPrint} disabled={!form.printer}>
                  {t('gate.settings.testPrint')}
                </Button>
                {printTest && (
                  <Text c={printTest.ok ? 'green' : 'red'} data-testid="print-test">
                    {printTest.text}
                  </Text>
                )}
              </Group>
            </Stack>
          </Fieldset>

          <Fieldset legend={t('gate.settings.relay')}>
            <Stack gap="sm">
              <Select
                label={t('gate.settings.relayType')}
                data={[
                  { value: NONE, label: t('gate.settings.relayNone') },
                  { value: 'serial', label: t('gate.settings.relaySerial') },
                  { value: 'http', label: t('gate.settings.relayHttp') },
                ]}
                value={form.relay.type || NONE}
                onChange={(value) => updateRelay({ type: fromNone(value) as RelayForm['type'] })}
                allowDeselect={false}
              />
              {form.relay.type === 'serial' && (
                <>
                  <Group grow align="flex-start">
                    <Autocomplete
                      label={t('gate.settings.port')}
                      data={portData}
                      value={form.relay.path}
                      onChange={(value) => updateRelay({ path: value })}
                      error={err('relay.path')}
                    />
                    <NumberInput
                      label={t('gate.settings.baudRate')}
                      value={form.relay.baudRate}
                      onChange={(value) => updateRelay({ baudRate: Number(value) })}
                      error={err('relay.baudRate')}
                    />
                  </Group>
                  <Group grow align="flex-start">
                    <TextInput
                      label={t('gate.settings.openHex')}
                      placeholder="A0 01 01 A2"
                      value={form.relay.openHex}
                      onChange={(e) => updateRelay({ openHex: e.currentTarget.value })}
                      error={err('relay.openHex')}
                    />
                    <TextInput
                      label={t('gate.settings.closeHex')}
                      placeholder="A0 01 00 A1"
                      value={form.relay.closeHex}
                      onChange={(e) => updateRelay({ closeHex: e.currentTarget.value })}
                      error={err('relay.closeHex')}
                    />
                  </Group>
                </>
              )}
              {form.relay.type === 'http' && (
                <Group grow align="flex-start">
                  <TextInput
                    label={t('gate.settings.relayUrl')}
                    placeholder="http://192.168.1.50/relay/0?turn=on"
                    value={form.relay.url}
                    onChange={(e) => updateRelay({ url: e.currentTarget.value })}
                    error={err('relay.url')}
                  />
                  <Select
                    label={t('gate.settings.relayMethod')}
                    data={['GET', 'POST', 'PUT']}
                    value={form.relay.method}
                    onChange={(value) => value && updateRelay({ method: value as RelayForm['method'] })}
                    allowDeselect={false}
                  />
                </Group>
              )}
              {form.relay.type && (
                <NumberInput
                  label={t('gate.settings.pulseMs')}
                  min={0}
                  max={60000}
                  value={form.relay.pulseMs}
                  onChange={(value) => updateRelay({ pulseMs: Number(value) })}
                  error={err('relay.pulseMs')}
                />
              )}
              <Group>
                <Button variant="default" onClick={testRelay} disabled={!loaded.relay}>
                  {t('gate.settings.testRelay')}
                </Button>
                {relayTest && (
                  <Text c={relayTest.ok ? 'green' : 'red'} data-testid="relay-test">
                    {relayTest.text}
                  </Text>
                )}
              </Group>
              <Text size="xs" c="dimmed">
                {t('gate.settings.relayTestHint')}
              </Text>
            </Stack>
          </Fieldset>

          <Fieldset legend={t('gate.settings.security')}>
            <Stack gap="sm">
              <PasswordInput
                label={t(loaded.pinSet ? 'gate.settings.changePin' : 'gate.settings.newPin')}
                description={t('gate.settings.newPinHint')}
                value={newPin}
                disabled={removePin}
                onChange={(e) => setNewPin(e.currentTarget.value)}
                error={err('newPin')}
                autoComplete="new-password"
              />
              {loaded.pinSet && (
                <Checkbox
                  label={t('gate.settings.removePin')}
                  checked={removePin}
                  onChange={(e) => setRemovePin(e.currentTarget.checked)}
                />
              )}
            </Stack>
          </Fieldset>

          <Group justify="flex-end">
            <Button type="submit" loading={saving}>
              {t('gate.settings.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Container>
  );
}
