import type { ExtensionType, Language } from './constants.js';
import type { Rights } from './rights.js';

/** Wire shapes of spec §7 for the session and the first entities. */
export interface SubjectSummary {
  id: number;
  name: string;
  key: string;
  multiLanguage: boolean;
  extensions: ExtensionType[];
  timeZone: string;
}

export interface Subject extends SubjectSummary {
  deviceKey: string;
  pathToFiles: string;
  dateCreate: string;
}

export interface Session {
  token: string;
  rights: Rights;
  superuser: boolean;
  manageuser: boolean;
  subject: SubjectSummary;
}

export interface AdminUser {
  id: number;
  login: string;
  name: string;
  active: boolean;
  verified: boolean;
  superuser: boolean;
  manageuser: boolean;
  lastAction: number | null;
  /** the last action's name per language, for lists */
  lastActionName?: Record<string, string> | null;
  actionId: number | null;
  language: Language;
  rights: Rights;
  subjectId: number;
  subject?: SubjectSummary;
  dateCreate: string;
}

export interface ManageSession {
  token: string;
  operator: { id: number; email: string; name: string };
}

export interface WebChannelSummary {
  id: number;
  name: string;
  channelKey: string;
  authorizationType: 1 | 2 | 3 | null;
}

export interface Paged<T> {
  data: T[];
  max: number;
}
