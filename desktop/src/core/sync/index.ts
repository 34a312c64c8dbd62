export { DeviceApi, type Fetch, ServerRefused, ServerUnreachable } from './api.js';
export { type Clock, FakeClock, systemClock } from './clock.js';
export { GateClient, type GateClientOptions, type GateResult, type GateStatus, type Violation } from './gate.js';
