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
  customField: Record<string, string>;
}

const toForm = (filter: AccreditationFilterData | null): FormState => {
  const f = filter ?? EMPTY_FILTER;
  return {
    text: f.text ?? '',
    groupId: f.groupId === null ? null : String(f.groupId),
    zoneId: f.zoneId === null ? null : String(f.zoneId),
    printed: f.printed === null ? null : String(f.printed),
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
  return {
    text: form.text.trim() || null,
    groupId: form.groupId ? Number(form.groupId) : null,
    zoneId: form.zoneId ? Number(form.zoneId) : null,
    printed: form.printed === '1' ? 1 : form.printed === '-1' ? -1 : null,
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
          {fields
            .filter((field) => fieldTypeId(field) !== IMAGE)
            .map((field) => {
              const label = localized(field.label, i18n.language) || field.name;
              const current = form.customField[String(field.id)] ?? '';
              return fieldTypeId(field) === BOOL ? (
                <Select
                  key={field.id}
                  label={label}
                  placeholder={t('accreditation.any')}
                  clearable
                  data={yesNo}
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
