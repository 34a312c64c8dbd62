import { Button, Drawer, Group, Select, Stack, TextInput } from '@mantine/core';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { localized } from '../../../api/action';
import {
  type AccreditationFilterData,
  type ActionField,
  EMPTY_FILTER,
  fieldTypeId,
} from '../../../api/accreditation-list';
import { DateField } from '../../../components/date-fields';

const SELECT_MULTI = 3;
const SELECT = 4;
const BOOL = 7;
const IMAGE = 9;

export interface Option {
  value: string;
  label: string;
}

interface FormState {
  text: string;
  groupId: string | null;
  zoneId: string | null;
  printed: string | null;
  entrance: string | null;
  entranceDate: string;
  customField: Record<string, string>;
}

/** Today on the user's clock (YYYY-MM-DD): the date picker's default (spec §2). */
export function today(): string {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

const toForm = (filter: AccreditationFilterData | null): FormState => {
  const f = filter ?? EMPTY_FILTER;
  return {
    text: f.text ?? '',
    groupId: f.groupId === null ? null : String(f.groupId),
    zoneId: f.zoneId === null ? null : String(f.zoneId),
    printed: f.printed === null ? null : String(f.printed),
    entrance: f.entrance ? String(f.entrance) : null,
    entranceDate: f.entranceDate ?? '',
    customField: Object.fromEntries(Object.entries(f.customField).map(([k, v]) => [k, String(v)])),
  };
};

/** The form as the filter call wants it; empty inputs are left out. */
export function toFilter(form: FormState, fields: ActionField[]): AccreditationFilterData {
  const customField: Record<string, string | number> = {};
  for (const field of fields) {
    const value = form.customField[String(field.id)]?.trim();
    if (!value) continue;
    customField[String(field.id)] = fieldTypeId(field) === BOOL ? Number(value) : value;
  }
  const entrance = form.entrance ? (Number(form.entrance) as 1 | 2 | 3 | 4) : null;
  return {
    text: form.text.trim() || null,
    groupId: form.groupId ? Number(form.groupId) : null,
    zoneId: form.zoneId ? Number(form.zoneId) : null,
    printed: form.printed === '1' ? 1 : form.printed === '-1' ? -1 : null,
    entrance: entrance ?? null,
    // The day matters for 2 and 4 only, and is then always sent: the filter stays the same tomorrow.
    entranceDate: entrance === 2 || entrance === 4 ? form.entranceDate || today() : null,
    customField,
  };
}

export interface FilterPanelProps {
  opened: boolean;
  onClose: () => void;
  /** the applied filter; null when the list shows everything */
  value: AccreditationFilterData | null;
  fields: ActionField[];
  groups: Option[];
  zones: Option[];
  onApply: (filter: AccreditationFilterData) => void;
  onShowAll: () => void;
}

/** The filter panel of spec §2 Accreditation list: text, group, zone, printed and the action's user fields. */
export function FilterPanel({ opened, onClose, value, fields, groups, zones, onApply, onShowAll }: FilterPanelProps) {
  const { t, i18n } = useTranslation();
  const [form, setForm] = useState<FormState>(() => toForm(value));
  useEffect(() => {
    if (opened) setForm(toForm(value));
  }, [opened, value]);

  const yesNo: Option[] = [
    { value: '1', label: t('basics.yes') },
    { value: '-1', label: t('basics.no') },
  ];
  const setField = (id: number, v: string | null) =>
    setForm((f) => ({ ...f, customField: { ...f.customField, [String(id)]: v ?? '' } }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply(toFilter(form, fields));
  };

  return (
    <Drawer opened={opened} onClose={onClose} position="right" title={t('accreditation.filter')} size="md">
      <form onSubmit={submit} aria-label={t('accreditation.filter')}>
        <Stack gap="sm">
          <TextInput
            label={t('accreditation.filterText')}
            description={t('accreditation.filterTextHint')}
            value={form.text}
            onChange={(e) => {
              const text = e.currentTarget.value;
              setForm((f) => ({ ...f, text }));
            }}
          />
          <Select
            label={t('accreditation.group')}
            placeholder={t('accreditation.any')}
            clearable
            searchable
            nothingFoundMessage={t('basics.noData')}
            data={groups}
            value={form.groupId}
            onChange={(groupId) => setForm((f) => ({ ...f, groupId }))}
          />
          <Select
            label={t('accreditation.zone')}
            placeholder={t('accreditation.any')}
            clearable
            searchable
            nothingFoundMessage={t('basics.noData')}
            data={zones}
            value={form.zoneId}
            onChange={(zoneId) => setForm((f) => ({ ...f, zoneId }))}
          />
          <Select
            label={t('accreditation.printed')}
            placeholder={t('accreditation.any')}
            clearable
            data={yesNo}
            value={form.printed}
            onChange={(printed) => setForm((f) => ({ ...f, printed }))}
          />
          <Select
            label={t('accreditationHistory.entrance')}
            placeholder={t('accreditation.any')}
            clearable
            data={[
              { value: '1', label: t('accreditationHistory.entered') },
              { value: '2', label: t('accreditationHistory.enteredOnDay') },
              { value: '3', label: t('accreditationHistory.notEntered') },
              { value: '4', label: t('accreditationHistory.notEnteredOnDay') },
            ]}
            value={form.entrance}
            onChange={(entrance) =>
              setForm((f) => ({
                ...f,
                entrance,
                entranceDate: (entrance === '2' || entrance === '4') && !f.entranceDate ? today() : f.entranceDate,
              }))
            }
          />
          {(form.entrance === '2' || form.entrance === '4') && (
            <DateField
              label={t('accreditationHistory.entranceDate')}
              description={t('accreditationHistory.entranceDateHint')}
              value={form.entranceDate}
              onChange={(entranceDate) => setForm((f) => ({ ...f, entranceDate }))}
            />
          )}
          {fields
            .filter((field) => fieldTypeId(field) !== IMAGE)
            .map((field) => {
              const label = localized(field.label, i18n.language) || field.name;
              const current = form.customField[String(field.id)] ?? '';
              const type = fieldTypeId(field);
              // a choice field offers its options (what its stored text holds), not a free-text box
              const choices =
                type === BOOL
                  ? yesNo
                  : type === SELECT || type === SELECT_MULTI
                    ? [...new Set(field.options.map((o) => o.value))].map((v) => ({ value: v, label: v }))
                    : null;
              return choices ? (
                <Select
                  key={field.id}
                  label={label}
                  placeholder={t('accreditation.any')}
                  clearable
                  searchable={choices.length > 7}
                  data={
                    current && !choices.some((c) => c.value === current)
                      ? [...choices, { value: current, label: current }]
                      : choices
                  }
                  value={current || null}
                  onChange={(v) => setField(field.id, v)}
                />
              ) : (
                <TextInput
                  key={field.id}
                  label={label}
                  value={current}
                  onChange={(e) => setField(field.id, e.currentTarget.value)}
                />
              );
            })}
          <Group justify="space-between" mt="md">
            <Button variant="default" onClick={onShowAll}>
              {t('accreditation.showAll')}
            </Button>
            <Button type="submit">{t('accreditation.applyFilter')}</Button>
          </Group>
        </Stack>
      </form>
    </Drawer>
  );
}
