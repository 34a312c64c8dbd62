import { describe, expect, it } from 'vitest';
import {
  copyDayItems,
  EXTENSION_MESSAGES,
  extensionAssignUsersSchema,
  extensionItemsSchema,
  type MealItemInput,
} from './extension.js';

const action = { dateFrom: '2026-06-01', dateTo: '2026-06-03T18:00', multiDay: false, days: [] };
const lunch = (over: Partial<MealItemInput> = {}): MealItemInput => ({
  id: null,
  label: { cs: 'Oběd' },
  date: '2026-06-01',
  timeFrom: '11:00',
  timeTo: '13:00',
  capacity: '',
  options: [{ name: { cs: 'Vegetariánské' }, capacity: 10 }],
  ...over,
});
const keys = (r: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  (r.error?.issues ?? []).map((i) => `${i.path.join('.')}:${i.message}`);

describe('meal items (spec §5)', () => {
  it('takes a valid day with blank capacity as unlimited', () => {
    const r = extensionItemsSchema(1, action).parse({ items: [lunch()] });
    expect(r.items[0].capacity).toBeNull();
    expect(r.items[0].options[0].capacity).toBe(10);
    expect(r.items[0].active).toBe(true);
  });
  it('refuses a date outside the action (23:59 of dateTo included)', () => {
    const s = extensionItemsSchema(1, action);
    expect(s.safeParse({ items: [lunch({ date: '2026-06-03' })] }).success).toBe(true);
    expect(keys(s.safeParse({ items: [lunch({ date: '2026-06-04' })] }))).toEqual([
      `items.0.date:${EXTENSION_MESSAGES.dateNotInAction}`,
    ]);
  });
  it('refuses a multi-day date that is not an action day', () => {
    const multi = { ...action, multiDay: true, days: ['2026-06-01', '2026-06-03'] };
    expect(keys(extensionItemsSchema(1, multi).safeParse({ items: [lunch({ date: '2026-06-02' })] }))).toEqual([
      `items.0.date:${EXTENSION_MESSAGES.dateNotInAction}`,
    ]);
  });
  it('refuses a start after the end', () => {
    expect(keys(extensionItemsSchema(1, action).safeParse({ items: [lunch({ timeFrom: '14:00' })] }))).toEqual([
      'items.0.timeTo:basics.timeSlotNotValid',
    ]);
  });
  it('marks both overlapping slots and the list', () => {
    const r = extensionItemsSchema(1, action).safeParse({
      items: [lunch(), lunch({ timeFrom: '12:30', timeTo: '14:00' }), lunch({ date: '2026-06-02' })],
    });
    expect(keys(r)).toEqual([
      'items.0.timeFrom:mealExtension.timeSlotsOverlap',
      'items.1.timeFrom:mealExtension.timeSlotsOverlap',
      'items:basics.timeSlotNotValid',
    ]);
    // touching slots do not overlap
    expect(
      extensionItemsSchema(1, action).safeParse({ items: [lunch(), lunch({ timeFrom: '13:00', timeTo: '14:00' })] })
        .success,
    ).toBe(true);
  });
  it('needs a cs label, cs option names, times and positive capacities', () => {
    const r = extensionItemsSchema(1, action).safeParse({
      items: [
        lunch({ label: { cs: ' ' }, timeFrom: '', capacity: 0, options: [{ name: { en: 'Veg' }, capacity: -1 }] }),
      ],
    });
    expect(keys(r)).toEqual([
      'items.0.label.cs:basics.requireField',
      'items.0.timeFrom:basics.requireField',
      'items.0.capacity:actionExtension.capacityPositive',
      'items.0.options.0.name.cs:mealExtension.mealNameRequired',
      'items.0.options.0.capacity:actionExtension.capacityPositive',
    ]);
  });
});

describe('parking areas (spec §5)', () => {
  it('needs a cs label and place names; date optional', () => {
    const s = extensionItemsSchema(2, action);
    expect(
      s.parse({ items: [{ label: { cs: 'P1' }, capacity: 5, places: [{ name: { cs: 'A' } }] }] }).items[0].date,
    ).toBeNull();
    expect(
      keys(
        s.safeParse({
          items: [{ label: { cs: '' }, date: '2026-07-01', places: [{ name: { cs: '' }, capacity: 'x' }] }],
        }),
      ),
    ).toEqual([
      'items.0.label.cs:basics.requireField',
      'items.0.places.0.name.cs:basics.requireField',
      'items.0.places.0.capacity:actionExtension.capacityPositive',
    ]);
  });
});

describe('copy a day', () => {
  it('copies the items of one day as new rows to the other days', () => {
    const items = extensionItemsSchema(1, null).parse({
      items: [{ ...lunch(), id: 4 }, lunch({ date: '2026-06-02' })],
    }).items;
    items[0].options[0].id = 9;
    const out = copyDayItems(items, '2026-06-01', ['2026-06-02', '2026-06-03'], true);
    expect(out.map((i) => [i.id, i.date])).toEqual([
      [4, '2026-06-01'],
      [null, '2026-06-02'],
      [null, '2026-06-03'],
    ]);
    expect(out[1].options[0].id).toBeNull();
    expect(items[0].options[0].id).toBe(9);
  });
});

describe('assign users', () => {
  it('takes items with an option and a licence plate; refuses the same item twice', () => {
    const v = extensionAssignUsersSchema.parse({
      items: [{ itemId: 1, option: '', licencePlate: ' 1ab 2345 ' }],
      usersIds: [3],
      actionId: 2,
    });
    expect(v.items[0]).toEqual({ itemId: 1, option: null, have: true, licencePlate: '1AB 2345' });
    expect(
      extensionAssignUsersSchema.safeParse({ items: [{ itemId: 1 }, { itemId: 1 }], usersIds: [3], actionId: 2 })
        .success,
    ).toBe(false);
    expect(extensionAssignUsersSchema.safeParse({ items: [], usersIds: [], actionId: 2 }).success).toBe(false);
  });
});
