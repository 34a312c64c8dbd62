import type { ExtensionType, Subject, SubjectSummary } from '@accredo/domain';
import type { SubjectEntity } from './subject.entity.js';

export function toSubjectSummary(s: SubjectEntity): SubjectSummary {
  return {
    id: s.id,
    name: s.name,
    key: s.key,
    multiLanguage: s.multiLanguage,
    extensions: (s.extensions ?? []) as ExtensionType[],
    timeZone: s.timeZone,
  };
}

export function toSubject(s: SubjectEntity): Subject {
  return {
    ...toSubjectSummary(s),
    deviceKey: s.deviceKey,
    pathToFiles: s.pathToFiles,
    dateCreate: s.createdAt.toISOString(),
  };
}
