export { derive, lookupHash, recordKey, type SealedPage, sealPage, storeKey } from './crypto.js';
export { SealPool } from './seal-pool.js';
export { type FoundPerson, OfflineStore, type QueuedScan, type RuleData, type WirePerson } from './store.js';
