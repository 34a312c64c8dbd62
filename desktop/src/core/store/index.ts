export { derive, lookupHash, recordKey } from './crypto.js';
export { type FoundPerson, OfflineStore, type QueuedScan, type RuleData, type WirePerson } from './store.js';
