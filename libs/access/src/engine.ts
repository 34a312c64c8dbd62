import type { Decision, GateContext, ScanRequest } from './types.js';

/** Decides one scan (issue 11 D1–D20, docs/access-control.md). Pure: no I/O, no clock of its own. */
export function decide(_req: ScanRequest, _ctx: GateContext): Decision {
  throw new Error('not implemented yet');
}
