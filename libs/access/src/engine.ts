import { normalizeCode, parseBadgeCode } from './code.js';
import { isDate, isTime, localDateTime } from './time.js';
import type {
  Decision,
  DecisionData,
  Effect,
  GateAction,
  GateContext,
  GatePerson,
  GateTemplate,
  MealSlot,
  ReasonCode,
  Rule,
  ScanRequest,
} from './types.js';

/**
 * Decides one scan (issue 11 D1–D20; docs/access-control.md has the order and every rule).
 * Pure: no I/O and no clock of its own. The moment is `req.at` (D19: the server clock online, the
 * station's scan time offline) read on the subject's wall clock `req.timeZone`. The caller looks the
 * code up (after `normalizeCode`, D18), passes what it knows in `ctx` and writes the effects.
 * Nonces and replays (D16, D17) and the upload of offline scans (D20) are the caller's.
 */
export function decide(req: ScanRequest, ctx: GateContext): Decision {
  const code = normalizeCode(req.code);
  const { template, action, person } = ctx;
  if (!template || !action || action.id !== template.actionId) {
    return refuse('DEVICE_NOT_CONFIGURED', { code });
  }
  if (!person) return refuse(ctx.personOfOtherAction ? 'OTHER_ACTION' : 'NOT_FOUND', { code });
  if (person.actionId !== template.actionId) return refuse('OTHER_ACTION', { code });

  const now = localDateTime(req.at, req.timeZone);

  // Badge versions: only the person's valid badge is a credential, in every mode and direction. A
  // version above the valid one was never printed (a forged code): as unknown as any other.
  const presented = parseBadgeCode(code).version;
  const current = person.badgeVersion ?? 0;
  if (presented > current) return refuse('NOT_FOUND', { code });
  // an offline scan replayed later (D20) is decided at its scan time: the badge just before the
  // valid one was still valid before it was replaced
  const replacedAt = person.badgeReplacedAt;
  const validThen = presented === current - 1 && typeof replacedAt === 'number' && req.at < replacedAt;
  if (presented < current && !validThen) {
    const data: DecisionData = { code, version: presented, current };
    // the moment of retirement is known for the badge just before the valid one
    if (presented === current - 1 && typeof replacedAt === 'number') {
      const retired = localDateTime(replacedAt, req.timeZone);
      data.retiredDay = retired.day;
      data.retiredTime = retired.time;
    }
    return refuse('BADGE_SUPERSEDED', data);
  }
  const base: DecisionData = { code, day: now.day, time: now.time };

  // D8: every mode, both directions, only within the action's dates (local).
  const end = isTime(action.timeTo) ? action.timeTo : '23:59';
  if (now.day < action.dateFrom || now.day > action.dateTo || (now.day === action.dateTo && now.time > end)) {
    return refuse('OUTSIDE_ACTION_DATES', { ...base, dateFrom: action.dateFrom, dateTo: action.dateTo, timeTo: end });
  }

  switch (template.mode) {
    case 1:
      return decideEntry(req, ctx, template, action, person, base);
    case 2:
      return decideCredit(req, ctx, action, person, template, base);
    case 3:
      return decideCheck(template, person, base);
    case 4:
      return decideMeal(person, template, base);
    case 5:
      return decideParking(req, ctx, person, template, base);
    default:
      return refuse('DEVICE_NOT_CONFIGURED', { code });
  }
}

function refuse(reason: ReasonCode, data: DecisionData, info = false): Decision {
  return { allowed: false, reason, data, info, effects: [] };
}

function allow(reason: 'OK' | 'OK_EXIT', data: DecisionData, info: boolean, effects: Effect[]): Decision {
  return { allowed: true, reason, data, info, effects };
}

/**
 * D4: the primary group's rule, else the first rule (template order) of another of the person's
 * groups, else the enabled global rule, else none.
 */
export function findRule(template: GateTemplate, person: GatePerson): Rule | null {
  const [primary, ...others] = person.groupIds;
  const byGroup = template.rules.find((r) => r.groupId === primary);
  if (primary !== undefined && byGroup) return byGroup;
  const other = template.rules.find((r) => others.includes(r.groupId));
  if (other) return other;
  const g = template.globalRule;
  if (g?.enabled) {
    return { groupId: 0, entrances: g.entrances, daily: g.daily, levelId: g.levelId, info: g.info, customRule: [] };
  }
  return null;
}

/** The rule's info flag where a rule applies (modes 2, 4, 5 show it but apply no limits). */
function ruleInfo(template: GateTemplate, person: GatePerson): boolean {
  return findRule(template, person)?.info ?? false;
}

/** Mode 1, entry (READER): D1–D7, D9, D10, D12. */
function decideEntry(
  req: ScanRequest,
  ctx: GateContext,
  template: GateTemplate,
  action: GateAction,
  person: GatePerson,
  base: DecisionData,
): Decision {
  const today = base.day as string;
  // D6: exits of a known accreditation of the action are always recorded.
  if (req.direction === 'exit') {
    const rule = person.groupIds.length ? findRule(template, person) : null;
    return allow('OK_EXIT', base, rule?.info ?? false, [{ kind: 'passage', type: 0, day: today }]);
  }
  // D3: mode 1 needs a group, even with a global rule.
  if (person.groupIds.length === 0) return refuse('NO_GROUP', base);
  const rule = findRule(template, person);
  if (!rule) return refuse('NO_RULE', { ...base, groupId: person.groupIds[0] });
  const info = rule.info;
  // D5: on multi-day actions today must be one of the person's days.
  if (action.days.length > 0 && !person.days.includes(today)) {
    return refuse('DAY_NOT_REGISTERED', { ...base, days: [...person.days].sort().join(', ') }, info);
  }
  // D12: a template with a zone also requires that zone.
  if (template.zoneId !== null && !person.zoneIds.includes(template.zoneId)) {
    return refuse('ZONE_NOT_ALLOWED', { ...base, zoneId: template.zoneId }, info);
  }
  // D9, D10: custom date rules, all must match; their budget replaces the rule's.
  let budget = rule.entrances;
  if (rule.customRule.length > 0) {
    const budgets: number[] = [];
    for (const c of rule.customRule) {
      const value = person.values[c.customField];
      const date = typeof value === 'string' ? value.trim() : '';
      if (!isDate(date)) return refuse('CUSTOM_DATE_INVALID', { ...base, fieldId: c.customField }, info);
      const data = { ...base, fieldId: c.customField, date };
      if (c.values.check === 'gte' && today < date) return refuse('CUSTOM_DATE_NOT_YET', data, info);
      if (c.values.check === 'lte' && today > date) return refuse('CUSTOM_DATE_PASSED', data, info);
      if (c.values.check === 'eq' && today !== date) return refuse('CUSTOM_DATE_OTHER_DAY', data, info);
      budgets.push(c.values.entrances);
    }
    // several matching custom rules: the strictest limited budget; unlimited only if all are 0
    const limited = budgets.filter((b) => b > 0);
    budget = limited.length ? Math.min(...limited) : 0;
  }
  // D1, D2: entries (never exits) of this person under this template, per local day if daily.
  const entries = ctx.state.passages.filter(
    (p) => p.type === 1 && (!rule.daily || localDateTime(p.at, req.timeZone).day === today),
  );
  if (budget > 0 && entries.length >= budget) {
    const first = entries.reduce((a, b) => (b.at < a.at ? b : a));
    const firstAt = localDateTime(first.at, req.timeZone);
    return refuse(
      rule.daily ? 'DAILY_ENTRANCES_USED' : 'ENTRANCES_USED',
      { ...base, used: entries.length, allowed: budget, firstDay: firstAt.day, firstTime: firstAt.time },
      info,
    );
  }
  // D7: no anti-passback: an entry while inside is another entry within the limits.
  return allow('OK', { ...base, used: entries.length + 1, allowed: budget, daily: rule.daily ? 1 : 0 }, info, [
    { kind: 'passage', type: 1, day: today },
  ]);
}

/** Mode 2, credit deduction: D13 (and D20 offline: the balance may go negative). Direction is ignored. */
function decideCredit(
  req: ScanRequest,
  ctx: GateContext,
  action: GateAction,
  person: GatePerson,
  template: GateTemplate,
  base: DecisionData,
): Decision {
  const info = ruleInfo(template, person);
  if (!action.isCredit) return refuse('CREDIT_NOT_ENABLED', base, info);
  const amount = req.amount;
  if (typeof amount !== 'number' || !Number.isSafeInteger(amount) || amount <= 0) {
    return refuse('AMOUNT_INVALID', { ...base, amount: typeof amount === 'number' ? amount : null }, info);
  }
  const balance = person.credit ?? 0;
  if (person.isUnlimited) {
    return allow('OK', { ...base, amount, balance, unlimited: 1 }, info, [
      { kind: 'credit', amount, balanceAfter: balance },
    ]);
  }
  if (!ctx.offline && balance < amount) return refuse('CREDIT_INSUFFICIENT', { ...base, amount, balance }, info);
  const after = balance - amount;
  return allow('OK', { ...base, amount, balance: after, unlimited: 0 }, info, [
    { kind: 'credit', amount, balanceAfter: after },
  ]);
}

/** Mode 3, zone check (CHECKER): D11. Ignores direction, group and limits; logged without an entrance. */
function decideCheck(template: GateTemplate, person: GatePerson, base: DecisionData): Decision {
  const info = template.globalRule?.info ?? false;
  if (template.zoneId === null) return refuse('DEVICE_NOT_CONFIGURED', { code: base.code }, info);
  if (!person.zoneIds.includes(template.zoneId)) {
    return refuse('ZONE_NOT_ALLOWED', { ...base, zoneId: template.zoneId }, info);
  }
  return allow('OK', { ...base, zoneId: template.zoneId }, info, [{ kind: 'check' }]);
}

const slotStart = (s: MealSlot) => `${s.date} ${s.timeFrom}`;

/** Mode 4, meal: D14. The slot covering now ([timeFrom, timeTo) local on its date) is used. */
function decideMeal(person: GatePerson, template: GateTemplate, base: DecisionData): Decision {
  const info = ruleInfo(template, person);
  if (person.meals.length === 0) return refuse('MEAL_NONE', base, info);
  const today = base.day as string;
  const time = base.time as string;
  const covering = person.meals.filter((s) => s.date === today && s.timeFrom <= time && time < s.timeTo);
  const slot = covering.find((s) => !s.used) ?? covering[0];
  const slotData = (s: MealSlot) => ({
    ...base,
    slotId: s.id,
    slotDate: s.date,
    slotFrom: s.timeFrom,
    slotTo: s.timeTo,
  });
  if (slot?.used) return refuse('MEAL_USED', slotData(slot), info);
  if (slot) return allow('OK', slotData(slot), info, [{ kind: 'meal', slotId: slot.id }]);
  const sorted = [...person.meals].sort((a, b) => (slotStart(a) < slotStart(b) ? -1 : 1));
  const now = `${today} ${time}`;
  const next = sorted.find((s) => slotStart(s) > now && !s.used) ?? sorted.find((s) => slotStart(s) > now);
  const shown = next ?? sorted[sorted.length - 1];
  return refuse('MEAL_NOT_NOW', { ...slotData(shown), next: next ? 1 : 0 }, info);
}

/** Mode 5, parking: D15 (occupancy per area = entries − exits; presence matters, D7). */
function decideParking(
  req: ScanRequest,
  ctx: GateContext,
  person: GatePerson,
  template: GateTemplate,
  base: DecisionData,
): Decision {
  const info = ruleInfo(template, person);
  if (person.parking.length === 0) return refuse('PARKING_NONE', base, info);
  const inside = new Set(ctx.state.parkingInside ?? []);
  const occupancy = (areaId: number) => ctx.state.parkingOccupancy?.[areaId] ?? 0;
  if (req.direction === 'exit') {
    // D6: the exit is recorded, from the area the person is inside, else their first area.
    const hold = person.parking.find((h) => inside.has(h.areaId)) ?? person.parking[0];
    return allow('OK_EXIT', { ...base, areaId: hold.areaId, occupancy: occupancy(hold.areaId) }, info, [
      { kind: 'parking', areaId: hold.areaId, type: 0 },
    ]);
  }
  const outside = person.parking.filter((h) => !inside.has(h.areaId));
  if (outside.length === 0) {
    return refuse('PARKING_ALREADY_INSIDE', { ...base, areaId: person.parking[0].areaId }, info);
  }
  const free = outside.find((h) => h.capacity === null || occupancy(h.areaId) < h.capacity);
  if (!free) {
    const full = outside[0];
    return refuse(
      'PARKING_FULL',
      { ...base, areaId: full.areaId, occupancy: occupancy(full.areaId), capacity: full.capacity },
      info,
    );
  }
  return allow(
    'OK',
    { ...base, areaId: free.areaId, occupancy: occupancy(free.areaId) + 1, capacity: free.capacity },
    info,
    [{ kind: 'parking', areaId: free.areaId, type: 1 }],
  );
}
