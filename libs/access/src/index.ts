export { type BadgeCode, formatBadgeCode, normalizeCode, parseBadgeCode } from './code.js';
export { decide, findRule } from './engine.js';
export { formatDay, type ReasonNames, reasonKey, reasonMessage } from './messages.js';
export {
  customRuleSchema,
  type DeviceTemplateData,
  deviceModeSchema,
  deviceTemplateDataInputSchema,
  deviceTemplateDataSchema,
  globalRuleSchema,
  normalizeTemplate,
  ruleSchema,
} from './schema.js';
export { isDate, isTime, isTimeZone, localDateTime, localDay, localTime } from './time.js';
export * from './types.js';
export type { GateDecisionShown, GatePersonShown, GateScanAnswer, StationStatus } from './wire.js';
