import {
  copyDayItems,
  EXTENSION_MEAL,
  type ExtensionData,
  type ExtensionType,
  type MultiText,
  type ExtensionItemView,
} from '@accredo/domain';

/** A meal option as the form holds it (capacity as typed; blank = unlimited). */
export interface OptionFormValues {
  id: number | null;
  name: MultiText;
  note: string;
  capacity: string;
}

/**
 * One item of the edit form: a meal time slot (date, times, options) or a parking area (places in
 * `options`, no times). One shape for both keeps one grid; the payload drops what a type lacks.
 */
export interface ItemFormValues {
  id: number | null;
  label: MultiText;
  /** YYYY-MM-DD; '' for a parking area of the whole event */
  date: string;
  timeFrom: string;
  timeTo: string;
  capacity: string;
  active: boolean;
  options: OptionFormValues[];
}

export interface ExtensionFormValues {
  items: ItemFormValues[];
}

const text = (value: Partial<MultiText> | null | undefined): MultiText => ({
  cs: value?.cs ?? '',
  sk: value?.sk ?? '',
  en: value?.en ?? '',
  de: value?.de ?? '',
});
const capacityText = (value: number | null) => (value === null || value === undefined ? '' : String(value));

export function itemFormValues(item: ExtensionItemView): ItemFormValues {
  return {
    id: item.id,
    label: text(item.label),
    date: item.date ?? '',
    timeFrom: item.timeFrom ?? '',
    timeTo: item.timeTo ?? '',
    capacity: capacityText(item.capacity),
    active: item.active,
    options: item.options.map((o) => ({
      id: o.id,
      name: text(o.name),
      note: o.note ?? '',
      capacity: capacityText(o.capacity),
    })),
  };
}

export const extensionFormValues = (data: ExtensionData): ExtensionFormValues => ({
  items: data.items.map(itemFormValues),
});

export const emptyItem = (date: string): ItemFormValues => ({
  id: null,
  label: text(null),
  date,
  timeFrom: '',
  timeTo: '',
  capacity: '',
  active: true,
  options: [],
});

export const emptyOption = (): OptionFormValues => ({ id: null, name: text(null), note: '', capacity: '' });

/**
 * The body of PUT action-extension/{actionId}/{type} from the form: a meal item with its options,
 * or a parking area (date null for the whole event) with its places (name and capacity only).
 */
export function formToInput(type: ExtensionType, values: ExtensionFormValues) {
  if (type === EXTENSION_MEAL)
    return {
      items: values.items.map((i) => ({
        id: i.id,
        label: i.label,
        date: i.date,
        timeFrom: i.timeFrom,
        timeTo: i.timeTo,
        capacity: i.capacity,
        active: i.active,
        options: i.options.map((o) => ({ id: o.id, name: o.name, note: o.note, capacity: o.capacity })),
      })),
    };
  return {
    items: values.items.map((i) => ({
      id: i.id,
      label: i.label,
      date: i.date || null,
      capacity: i.capacity,
      active: i.active,
      places: i.options.map((o) => ({ id: o.id, name: o.name, capacity: o.capacity })),
    })),
  };
}

/** The tabs of the edit and users screens (spec §2 Action extension edit): the key '' is 'For whole event'. */
export function extensionTabs(type: ExtensionType, data: Pick<ExtensionData, 'action'>): string[] {
  const { multiDay, days } = data.action;
  if (!multiDay || days.length === 0) return [''];
  // Parking areas may hold for the whole event beside the days; meals are always on a day.
  return type === EXTENSION_MEAL ? [...days] : ['', ...days];
}

/** The tab an item shows in: its day, or the first tab when its date is not one of them. */
export function tabOfItem(tabs: string[], date: string | null): string {
  if (tabs.length === 1) return tabs[0];
  return tabs.includes(date ?? '') ? (date ?? '') : tabs[0];
}

/** Copy a day's items to other days (spec §4) in the form: new rows with the target date. */
export function copyFormItems(
  items: ItemFormValues[],
  fromDay: string,
  toDays: string[],
  replace: boolean,
): ItemFormValues[] {
  // The shared copy (libs/domain) works on dates with null for 'no date'; the form keeps ''.
  const asShared = items.map((i) => ({ ...i, date: i.date || null }));
  return copyDayItems(asShared, fromDay || null, toDays, replace).map((i) => ({ ...i, date: i.date ?? '' }));
}

/** Tabs need a non-empty value: 'whole' stands for the '' tab ('For whole event'). */
export const tabValue = (day: string) => day || 'whole';
export const tabKey = (value: string | null, tabs: string[]) =>
  value === null ? tabs[0] : value === 'whole' ? '' : value;
