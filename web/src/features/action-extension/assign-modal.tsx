import {
  EXTENSION_MEAL,
  type ExtensionItemView,
  type ExtensionType,
  LICENCE_PLATE_MAX,
  type UserExtensionItemInput,
  type UserExtensionItemView,
} from '@accredo/domain';
import { Badge, Button, Group, Modal, Paper, SegmentedControl, Select, Stack, Text, TextInput } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { localized } from '../../api/action';
import { WorkingButton } from '../../components/working-button';

/** What happens to one item: left as it is, given (with an option), or taken away. */
export type ItemMode = 'keep' | 'assign' | 'remove';

export interface ItemChoice {
  mode: ItemMode;
  option: string | null;
  licencePlate: string;
}

/** The starting choices: a single person's own items are 'assign' with their option; the rest 'keep'. */
export function initialChoices(items: ExtensionItemView[], held: UserExtensionItemView[]): Record<number, ItemChoice> {
  return Object.fromEntries(
    items.map((item) => {
      const own = held.find((h) => h.itemId === item.id);
      return [
        item.id,
        {
          mode: own ? 'assign' : 'keep',
          option: own?.option ? String(own.option) : null,
          licencePlate: own?.licencePlate ?? '',
        } satisfies ItemChoice,
      ];
    }),
  );
}

/** The `items` of PUT …/users or …/groups/{id}: only the items whose mode is not 'keep'. */
export function choicesToItems(
  type: ExtensionType,
  choices: Record<number, ItemChoice>,
  locked: Set<number> = new Set(),
): UserExtensionItemInput[] {
  return Object.entries(choices)
    .filter(([id, c]) => c.mode !== 'keep' && !locked.has(Number(id)))
    .map(([id, c]) => ({
      itemId: Number(id),
      option: c.mode === 'assign' && c.option ? Number(c.option) : null,
      have: c.mode === 'assign',
      ...(type === EXTENSION_MEAL ? {} : { licencePlate: c.mode === 'assign' ? c.licencePlate || null : null }),
    }));
}

/**
 * Assigns the items of a day to one person or to a selection (spec §2 users of an extension): per
 * item keep / assign (with an option or place) / remove. An item or option at capacity (or
 * inactive) shows as full and cannot be chosen, unless the person already holds it; a used meal is
 * shown as used and locked (spec §4). Parking carries a licence plate per person.
 */
export function AssignModal({
  opened,
  title,
  type,
  items,
  held,
  single,
  busy,
  header,
  shown,
  onClose,
  onSubmit,
}: {
  opened: boolean;
  title: string;
  type: ExtensionType;
  /** the items of the open day tab */
  items: ExtensionItemView[];
  /** a single person's current items; empty for a selection or a group */
  held: UserExtensionItemView[];
  /** one person (held items count as theirs, used meals are locked) */
  single: boolean;
  busy: boolean;
  /** shown above the items (a group's day tabs) */
  header?: ReactNode;
  /** which items are on screen now (all by default); choices of hidden ones are kept */
  shown?: (item: ExtensionItemView) => boolean;
  onClose: () => void;
  onSubmit: (items: UserExtensionItemInput[]) => void;
}) {
  const { t, i18n } = useTranslation();
  const [choices, setChoices] = useState<Record<number, ItemChoice>>({});
  // biome-ignore lint/correctness/useExhaustiveDependencies: a fresh start each time the dialog opens
  useEffect(() => {
    if (opened) setChoices(initialChoices(items, single ? held : []));
  }, [opened]);
  const meal = type === EXTENSION_MEAL;
  const visible = shown ? items.filter(shown) : items;
  const used = new Set(held.filter((h) => h.dateUsed).map((h) => h.itemId));
  const change = (id: number, patch: Partial<ItemChoice>) =>
    setChoices((prev) => ({ ...prev, [id]: { ...prev[id], ...patch } }));
  const anything = Object.entries(choices).some(([id, c]) => c.mode !== 'keep' && !used.has(Number(id)));

  return (
    <Modal opened={opened} onClose={onClose} title={title} size="lg">
      <Stack>
        {header}
        {visible.length === 0 && <Text c="dimmed">{t('extension.noItems')}</Text>}
        {visible.map((item) => {
          const choice = choices[item.id] ?? { mode: 'keep', option: null, licencePlate: '' };
          const own = held.find((h) => h.itemId === item.id);
          const label = localized(item.label, i18n.language);
          const slot = meal && item.timeFrom ? ` ${item.timeFrom}–${item.timeTo}` : '';
          const name = `${label}${slot}`;
          const isUsed = used.has(item.id);
          const itemFull = item.full && !own;
          const optionData = item.options.map((o) => {
            const mine = own?.option === o.id;
            const full = o.full && !mine;
            const optionName = localized(o.name, i18n.language);
            return {
              value: String(o.id),
              label: full ? `${optionName} (${t('actionExtension.capacityFull')})` : optionName,
              disabled: full,
            };
          });
          return (
            <Paper key={item.id} withBorder p="sm" role="group" aria-label={name}>
              <Stack gap="xs">
                <Group justify="space-between">
                  <Text fw={600}>{name}</Text>
                  <Group gap={6}>
                    {itemFull && (
                      <Badge color="red" variant="light">
                        {t('actionExtension.capacityFull')}
                      </Badge>
                    )}
                    {isUsed && (
                      <Badge color="gray" leftSection={<IconLock size={12} />}>
                        {t('extension.used')}
                      </Badge>
                    )}
                  </Group>
                </Group>
                {isUsed ? (
                  <Text size="sm" c="dimmed">
                    {t('actionExtension.used')}
                  </Text>
                ) : (
                  <SegmentedControl
                    aria-label={`${t('extension.users.choice')}: ${name}`}
                    value={choice.mode}
                    onChange={(mode) => change(item.id, { mode: mode as ItemMode })}
                    data={[
                      { value: 'keep', label: t('extension.users.keep') },
                      { value: 'assign', label: t('extension.users.assign'), disabled: itemFull },
                      { value: 'remove', label: t('extension.users.remove') },
                    ]}
                  />
                )}
                {!isUsed && choice.mode === 'assign' && item.options.length > 0 && (
                  <Select
                    label={t(meal ? 'extension.meal.optionSelect' : 'extension.parking.placeSelect')}
                    placeholder={t('extension.users.noOption')}
                    data={optionData}
                    value={choice.option}
                    onChange={(option) => change(item.id, { option })}
                    clearable
                  />
                )}
                {!isUsed && !meal && choice.mode === 'assign' && (
                  <TextInput
                    label={t('extension.parking.licencePlate')}
                    maxLength={LICENCE_PLATE_MAX}
                    value={choice.licencePlate}
                    onChange={(e) => change(item.id, { licencePlate: e.currentTarget.value })}
                  />
                )}
              </Stack>
            </Paper>
          );
        })}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('basics.cancel')}
          </Button>
          <WorkingButton busy={busy} disabled={!anything} onClick={() => onSubmit(choicesToItems(type, choices, used))}>
            {t('extension.users.save')}
          </WorkingButton>
        </Group>
      </Stack>
    </Modal>
  );
}
