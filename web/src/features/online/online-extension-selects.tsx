import type { OnlineChannelData, OnlineExtensionItem, UserExtensionItemInput } from '@accredo/domain';
import { LICENCE_PLATE_MAX } from '@accredo/domain';
import { Fieldset, Select, SimpleGrid, TextInput } from '@mantine/core';
import { type Control, useController } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { formatDay } from '../action/format-day';
import { channelText, type OnlineFormOutput, type OnlineFormValues } from './online-form-values';

type FormControl = Control<OnlineFormValues, unknown, OnlineFormOutput>;

/** The value of an item's select: an option's id, ITEM for an item without options, or null. */
const ITEM = 'item';

function choiceOf(items: UserExtensionItemInput[], itemId: number): string | null {
  const held = items.find((i) => i.itemId === itemId);
  if (!held) return null;
  return held.option === null || held.option === undefined ? ITEM : String(held.option);
}

/** The list with one item's choice set (or removed with null). */
function withChoice(
  items: UserExtensionItemInput[],
  itemId: number,
  value: string | null,
  licencePlate?: string | null,
): UserExtensionItemInput[] {
  const rest = items.filter((i) => i.itemId !== itemId);
  if (!value) return rest;
  return [
    ...rest,
    {
      itemId,
      option: value === ITEM ? null : Number(value),
      have: true,
      ...(licencePlate === undefined ? {} : { licencePlate }),
    },
  ];
}

/** An item's name: its label, with the day and time of a meal (e.g. "1 Jul 2026 · Lunch 12:00–13:00"). */
export function itemName(item: OnlineExtensionItem, language: string) {
  const label = channelText(item.label, language);
  const slot = item.timeFrom ? ` ${item.timeFrom}–${item.timeTo}` : '';
  return item.date ? `${formatDay(item.date, language)} · ${label}${slot}` : `${label}${slot}`;
}

/**
 * The choices an item offers: its options (full ones disabled and marked, spec §4), or the item
 * itself when it has none.
 */
function useChoices(item: OnlineExtensionItem) {
  const { t, i18n } = useTranslation();
  const full = ` (${t('extension.online.full')})`;
  if (item.options.length === 0)
    return [
      {
        value: ITEM,
        label: `${channelText(item.label, i18n.language)}${item.full ? full : ''}`,
        disabled: item.full,
      },
    ];
  return item.options.map((o) => {
    const name = channelText(o.name, i18n.language);
    const note = o.note ? ` – ${o.note}` : '';
    const disabled = item.full || o.full;
    return { value: String(o.id), label: `${name}${note}${disabled ? full : ''}`, disabled };
  });
}

function MealSelect({ item, control }: { item: OnlineExtensionItem; control: FormControl }) {
  const { t, i18n } = useTranslation();
  const { field } = useController({ control, name: 'mealItems' });
  const choices = useChoices(item);
  const value = field.value ?? [];
  return (
    <Select
      label={itemName(item, i18n.language)}
      placeholder={t('extension.online.notChosen')}
      data={choices}
      value={choiceOf(value, item.id)}
      onChange={(next) => field.onChange(withChoice(value, item.id, next))}
      clearable
    />
  );
}

/** Parking: one car park (and place) per person, with the licence plate. */
function ParkingSelect({ items, control }: { items: OnlineExtensionItem[]; control: FormControl }) {
  const { t, i18n } = useTranslation();
  const { field } = useController({ control, name: 'parkingItems' });
  const value = field.value ?? [];
  const held = value[0];
  const full = ` (${t('extension.online.full')})`;
  // One list over all areas: an area without places is one choice, an area with places one per place.
  const data = items.flatMap((item) => {
    const name = itemName(item, i18n.language);
    if (item.options.length === 0)
      return [{ value: `${item.id}:`, label: `${name}${item.full ? full : ''}`, disabled: item.full }];
    return item.options.map((o) => {
      const disabled = item.full || o.full;
      return {
        value: `${item.id}:${o.id}`,
        label: `${name} – ${channelText(o.name, i18n.language)}${disabled ? full : ''}`,
        disabled,
      };
    });
  });
  const current = held ? `${held.itemId}:${held.option ?? ''}` : null;
  const plate = held?.licencePlate ?? '';
  return (
    <>
      <Select
        label={t('extension.online.parking')}
        placeholder={t('extension.online.notChosen')}
        data={data}
        value={current}
        onChange={(next) => {
          if (!next) return field.onChange([]);
          const [itemId, option] = next.split(':');
          field.onChange([
            { itemId: Number(itemId), option: option ? Number(option) : null, have: true, licencePlate: plate || null },
          ]);
        }}
        clearable
      />
      {held && (
        <TextInput
          label={t('extension.online.licencePlate')}
          maxLength={LICENCE_PLATE_MAX}
          value={plate}
          onChange={(e) => field.onChange([{ ...held, licencePlate: e.currentTarget.value || null }])}
        />
      )}
    </>
  );
}

/**
 * The meal and parking selects of the registration form (spec §3 payload mealItems, parkingItems),
 * shown when the channel offers them (viewMealSelect / viewParkingSelect with the action's extension).
 */
export function OnlineExtensionSelects({ data, control }: { data: OnlineChannelData; control: FormControl }) {
  const { t } = useTranslation();
  const meals = data.viewMealSelect ? (data.mealItems ?? []) : [];
  const parking = data.viewParkingSelect ? (data.parkingItems ?? []) : [];
  return (
    <>
      {meals.length > 0 && (
        <Fieldset legend={t('extension.online.meal')} aria-label={t('extension.online.meal')}>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="sm">
            {meals.map((item) => (
              <MealSelect key={item.id} item={item} control={control} />
            ))}
          </SimpleGrid>
        </Fieldset>
      )}
      {parking.length > 0 && (
        <Fieldset legend={t('extension.online.parking')} aria-label={t('extension.online.parking')}>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="sm">
            <ParkingSelect items={parking} control={control} />
          </SimpleGrid>
        </Fieldset>
      )}
    </>
  );
}
