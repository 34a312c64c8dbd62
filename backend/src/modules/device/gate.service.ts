import {
  type Decision,
  decide,
  type GateDecisionShown,
  type GatePerson,
  type GatePersonShown,
  localDay,
  normalizeCode,
  type Passage,
  parseBadgeCode,
  reasonMessage,
} from '@accredo/access';
import {
  type deviceOfflineScanSchema,
  type deviceScanSchema,
  hasControlCharacter,
  isAccreditationCode,
} from '@accredo/domain';
import { hash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { z } from 'zod';
import type { Language } from '@accredo/i18n';
import { AppError } from '../../common/app-error.js';
import {
  type Core,
  type CoreEnv,
  coreRunner,
  readStep as all,
  type WriteResult,
  writeStep as run,
} from '../../database/core-runner.js';
import { gateExtensionEffect, gateExtensionState } from '../action-extension/gate-extension.js';
import type { DeviceAuth } from '../../common/request.js';
import { type GateDevice, GateCache } from './gate-cache.service.js';
import { isSqlite, readDate, readJson } from './sql.js';

type Lang = Language;

/** The lowest balance an offline deduction may leave: what the int `credit` column holds (D20). */
export const CREDIT_FLOOR = -2_147_483_647;

/** The person shown at the gate with the decision: online, with the photo URL and group names. */
export type ScanPerson = GatePersonShown & Required<Pick<GatePersonShown, 'photoUrl' | 'groups'>>;

/** What a scan answers (and what a replay of its nonce answers again, D16/D17). */
export interface ScanAnswer extends GateDecisionShown {
  /** the decision's moment (ISO) */
  at: string;
  person: ScanPerson | null;
  offline: boolean;
  violation: boolean;
}

interface ScanInput {
  gate: GateDevice;
  code: string;
  rawCode: string;
  direction: 'entry' | 'exit';
  amount: number | null;
  nonce: string;
  requestHash: string;
  at: number;
  deviceTime: number | null;
  offline: boolean;
  stationAllowed: boolean | null;
}

/** `json` is the answer as stored in device_scan.decision: the lean route answers it as it is. */
type CoreResult =
  | { kind: 'answer'; answer: ScanAnswer; json: string }
  | { kind: 'replay'; answer: ScanAnswer; json: string }
  | { kind: 'conflict' };

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/**
 * The gate's online decision and the offline upload (issue 11, docs/device-protocol.md). The
 * reads, the engine's decision and its writes are one short transaction of a few raw statements
 * (scanCore, run by database/core-runner.ts):
 * - SQLite: prepared statements run synchronously inside BEGIN IMMEDIATE (one writer, and no other
 *   JavaScript runs between the reads and the writes), after any open transaction of the shared
 *   connection has finished; writes arriving together share the transaction (group commit);
 * - MariaDB: READ COMMITTED with the person's row locked (SELECT … FOR UPDATE) before the entry
 *   log and the credit are read, so concurrent scans of one person are decided one after another.
 * The unique (device, nonce) of device_scan makes a replay write nothing (D16); a duplicate in
 * flight in this process waits for the first (D17), one on another instance meets the unique key
 * and answers the stored decision.
 */
@Injectable()
export class GateService {
  private readonly inFlight = new Map<string, Promise<unknown>>();

  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly cache: GateCache,
  ) {}

  async scan(auth: DeviceAuth, body: z.output<typeof deviceScanSchema>, lang: Lang) {
    const result = await this.decideOnline(auth, body);
    if (result.kind === 'conflict') throw new AppError('NONCE_CONFLICT');
    return this.present(result.answer, lang, result.kind === 'replay');
  }

  /**
   * The lean route's answer as JSON text, `{"data": {…answer, message, replay}}` (what `scan`
   * answers through Nest): the answer is serialised once, for its device_scan row, and that text is
   * reused for the wire (a replay reuses the stored text).
   */
  async scanEnvelope(auth: DeviceAuth, body: z.output<typeof deviceScanSchema>, lang: Lang): Promise<string> {
    const result = await this.decideOnline(auth, body);
    if (result.kind === 'conflict') throw new AppError('NONCE_CONFLICT');
    const message = reasonMessage(decisionOf(result.answer), lang);
    const replay = result.kind === 'replay';
    if (!result.json.endsWith('}')) return JSON.stringify({ data: { ...result.answer, message, replay } });
    return `{"data":${result.json.slice(0, -1)},"message":${JSON.stringify(message)},"replay":${replay}}}`;
  }

  private async decideOnline(auth: DeviceAuth, body: z.output<typeof deviceScanSchema>): Promise<CoreResult> {
    const gate = await this.cache.get(auth.deviceId);
    const code = normalizeCode(body.code);
    const input: ScanInput = {
      gate,
      code,
      rawCode: body.code,
      direction: body.direction,
      amount: body.amount,
      nonce: body.nonce,
      requestHash: requestHash(code, body.direction, body.amount),
      at: Date.now(),
      deviceTime: body.deviceTime ?? null,
      offline: false,
      stationAllowed: null,
    };
    return this.once(`${auth.deviceId}:${body.nonce}`, () => this.execute(input));
  }

  /** D20: every offline scan is taken, in scan-time order, decided again with the server's data. */
  async upload(auth: DeviceAuth, scans: z.output<typeof deviceOfflineScanSchema>[], lang: Lang) {
    const gate = await this.cache.get(auth.deviceId);
    const ordered = scans.map((s, i) => ({ s, i })).sort((a, b) => a.s.scanTime - b.s.scanTime || a.i - b.i);
    const results: (ReturnType<GateService['present']> & { conflict?: boolean })[] = [];
    let violations = 0;
    let failed = 0;
    const replay = (s: (typeof ordered)[number]['s']) => {
      const code = normalizeCode(s.code);
      return this.once(`${auth.deviceId}:${s.nonce}`, () =>
        this.execute({
          gate,
          code,
          rawCode: s.code,
          direction: s.direction,
          amount: s.amount,
          nonce: s.nonce,
          requestHash: requestHash(code, s.direction, s.amount),
          at: s.scanTime,
          deviceTime: s.scanTime,
          offline: true,
          stationAllowed: s.allowed ?? null,
        }),
      );
    };
    // SQLite: queued in scan-time order, they are decided in that order in one group commit;
    // MariaDB: one after another, each seeing the writes of the earlier ones.
    const outcomes: CoreResult[] = [];
    if (isSqlite(this.ds)) outcomes.push(...(await Promise.all(ordered.map(({ s }) => replay(s)))));
    else for (const { s } of ordered) outcomes.push(await replay(s));
    ordered.forEach(({ s }, k) => {
      const result = outcomes[k];
      if (result.kind === 'conflict') {
        results.push({ ...conflictAnswer(s.nonce, s.direction, s.scanTime, lang), conflict: true });
        return;
      }
      if (result.answer.violation) violations++;
      if (!result.answer.person) failed++;
      results.push(this.present(result.answer, lang, result.kind === 'replay'));
    });
    return { results, violations, failed };
  }

  private present(answer: ScanAnswer, lang: Lang, replay: boolean) {
    return { ...answer, message: reasonMessage(decisionOf(answer), lang), replay };
  }

  /** One execution per (device, nonce) at a time in this process: a duplicate waits for the first (D17). */
  private async once<T>(key: string, fn: () => Promise<T>): Promise<T> {
    for (let pending = this.inFlight.get(key); pending; pending = this.inFlight.get(key)) {
      await pending.catch(() => undefined);
    }
    const p = fn();
    this.inFlight.set(key, p);
    try {
      return await p;
    } finally {
      if (this.inFlight.get(key) === p) this.inFlight.delete(key);
    }
  }

  /**
   * The scan's core in a transaction of database/core-runner.ts: on SQLite in the group commit of
   * the writes arriving with it, each scan a savepoint, answered once the batch is committed and
   * its log is on the disk (WalSync: nothing is answered that a power cut could take back); on
   * MariaDB its reads as prepared statements too (they hold no COUNT), run again when a duplicate
   * of its nonce committed first on another instance (it then answers what that one stored).
   */
  private execute(input: ScanInput): Promise<CoreResult> {
    return coreRunner(this.ds).run((env) => scanCore(env, input), {
      prepared: 'all',
      retry: (message) => /UQ_device_scan_device_nonce|Duplicate entry/i.test(message),
    });
  }
}

/** SHA-256 hex of what a replay must repeat (crypto.hash: one call, no Hash object). */
function requestHash(code: string, direction: string, amount: number | null): string {
  return hash('sha256', JSON.stringify([code, direction, amount ?? null]));
}

const decisionOf = (answer: ScanAnswer): Decision => ({
  allowed: answer.allowed,
  reason: answer.reason,
  data: answer.data,
  info: answer.info,
  effects: answer.effects,
});

function conflictAnswer(nonce: string, direction: 'entry' | 'exit', at: number, lang: Lang) {
  const decision: Decision = { allowed: false, reason: 'NONCE_CONFLICT', data: {}, info: false, effects: [] };
  return {
    nonce,
    allowed: false,
    reason: 'NONCE_CONFLICT' as const,
    data: {},
    info: false,
    effects: [],
    direction,
    at: new Date(at).toISOString(),
    person: null,
    offline: true,
    violation: false,
    message: reasonMessage(decision, lang),
    replay: false,
  };
}

/** User-field values as the engine compares them (dates are kept as text). */
function fieldValues(raw: unknown): Record<number, string | null> {
  const values = readJson<Record<string, unknown>>(raw, {});
  const out: Record<number, string | null> = {};
  for (const [k, v] of Object.entries(values ?? {})) {
    out[Number(k)] = typeof v === 'string' ? v : typeof v === 'number' ? String(v) : null;
  }
  return out;
}

/** Control characters out, at most 255 characters: what the failed-scan log keeps of a code. */
const storedCode = (raw: string) =>
  [...raw]
    .filter((c) => !hasControlCharacter(c))
    .join('')
    .slice(0, 255);

/**
 * One scan: replay check, the person (locked on MariaDB), their passages under the template, the
 * engine's decision, its effects and the scan row. A generator of statements so that the same
 * steps run synchronously on SQLite and awaited on MariaDB.
 */
function* scanCore(env: CoreEnv, input: ScanInput): Core<CoreResult> {
  const { lock, date } = env;
  const { gate } = input;
  const prev = (yield all('SELECT requestHash, decision FROM device_scan WHERE deviceId = ? AND nonce = ?', [
    gate.deviceId,
    input.nonce,
  ])) as { requestHash: string; decision: unknown }[];
  if (prev.length) {
    if (prev[0].requestHash !== input.requestHash) return { kind: 'conflict' };
    const stored = prev[0].decision;
    const answer = readJson<ScanAnswer>(stored, null as never);
    return { kind: 'replay', answer, json: typeof stored === 'string' ? stored : JSON.stringify(answer) };
  }

  let row: Record<string, unknown> | undefined;
  // a badge's code is `{bc}-{version}` once a reprint replaced it: the bc finds the person, the
  // engine compares the version with the valid one (docs/access-control.md "Badge versions")
  const bc = parseBadgeCode(input.code).bc;
  const codeUsable = isAccreditationCode(bc);
  if (codeUsable) {
    const rows = (yield all(
      `SELECT id, actionId, customId, firstname, lastname, bc, days, fieldValues, credit, isUnlimited, imageId, badgeVersion, badgeReplacedAt FROM accreditation WHERE bc = ? AND subjectId = ?${lock}`,
      [bc, gate.subjectId],
    )) as Record<string, unknown>[];
    row = rows[0];
  }
  const otherAction = !!row && !!gate.action && Number(row.actionId) !== gate.action.id;
  let person: GatePerson | null = null;
  let shown: ScanPerson | null = null;
  const passages: Passage[] = [];
  if (row && !otherAction) {
    const id = Number(row.id);
    // groups (with names), zones, the passages under this template and the photo's file key in one
    // statement (one round trip)
    const links = (yield all(
      `SELECT 'g' AS k, ag.groupId AS v, 0 AS n, NULL AS at, g.name AS s FROM accreditation_group ag LEFT JOIN \`groups\` g ON g.id = ag.groupId WHERE ag.accreditationId = ?
       UNION ALL SELECT 'z', zoneId, 0, NULL, NULL FROM accreditation_zone WHERE accreditationId = ?
       UNION ALL SELECT 'p', type, id, createdAt, NULL FROM entrance WHERE deviceTemplateId = ? AND accreditationId = ?
       UNION ALL SELECT 'i', id, 0, NULL, fileKey FROM image WHERE id = ? AND subjectId = ?`,
      [id, id, gate.template?.id ?? 0, id, num(row.imageId) ?? 0, gate.subjectId],
    )) as { k: string; v: unknown; n: unknown; at: unknown; s: unknown }[];
    const groupIds: number[] = [];
    const groupNames = new Map<number, string>();
    const zoneIds: number[] = [];
    const found: { type: 1 | 0; at: number; n: number }[] = [];
    let photoKey: string | null = null;
    for (const l of links) {
      if (l.k === 'g') {
        groupIds.push(Number(l.v));
        groupNames.set(Number(l.v), l.s === null || l.s === undefined ? '' : String(l.s));
      } else if (l.k === 'z') zoneIds.push(Number(l.v));
      else if (l.k === 'i') photoKey = l.s ? String(l.s) : null;
      else found.push({ type: Number(l.v) === 1 ? 1 : 0, at: readDate(l.at), n: Number(l.n) });
    }
    groupIds.sort((x, y) => x - y); // the primary group is the first by id (as print and mail read it)
    zoneIds.sort((x, y) => x - y);
    found.sort((x, y) => x.at - y.at || x.n - y.n);
    for (const p of found) {
      // an offline scan is replayed against what had happened before it (D20)
      if (!input.offline || p.at <= input.at) passages.push({ type: p.type, at: p.at });
    }
    person = {
      id,
      actionId: Number(row.actionId),
      bc: String(row.bc),
      groupIds,
      zoneIds,
      days: readJson<string[]>(row.days, []),
      values: fieldValues(row.fieldValues),
      credit: Number(row.credit ?? 0),
      isUnlimited: Boolean(Number(row.isUnlimited)),
      meals: [],
      parking: [],
      badgeVersion: Number(row.badgeVersion ?? 0),
      badgeReplacedAt:
        row.badgeReplacedAt === null || row.badgeReplacedAt === undefined ? null : readDate(row.badgeReplacedAt),
    };
    shown = {
      id,
      customId: Number(row.customId),
      firstname: String(row.firstname),
      lastname: String(row.lastname),
      bc: String(row.bc),
      imageId: num(row.imageId),
      groupIds: person.groupIds,
      zoneIds: person.zoneIds,
      credit: person.credit,
      isUnlimited: person.isUnlimited,
      photoUrl: photoKey ? `/api/file/${encodeURIComponent(photoKey)}` : null,
      groups: groupIds.map((g) => ({ id: g, name: groupNames.get(g) ?? '' })),
    };
  }

  // modes 4 and 5: the person's meals and car parks (issue 14, action-extension/gate-extension.ts)
  const ext =
    person && gate.template && gate.template.mode >= 4
      ? yield* gateExtensionState(lock, gate.template.mode, person.id, input.at, gate.timeZone, input.offline)
      : null;
  if (person && ext) Object.assign(person, { meals: ext.meals, parking: ext.parking });
  const decision = decide(
    { code: input.code, direction: input.direction, amount: input.amount, at: input.at, timeZone: gate.timeZone },
    {
      template: gate.template,
      action: gate.action,
      person,
      personOfOtherAction: otherAction,
      state: { passages, parkingOccupancy: ext?.parkingOccupancy, parkingInside: ext?.parkingInside },
      offline: input.offline,
    },
  );

  const at = new Date(input.at);
  // the engine's local day of the moment (every decision from D8 on carries it)
  const day = typeof decision.data.day === 'string' ? decision.data.day : localDay(input.at, gate.timeZone);
  if (person && gate.template) {
    for (const effect of decision.effects) {
      if (effect.kind === 'passage') {
        yield run(
          'INSERT INTO entrance (subjectId, actionId, accreditationId, type, deviceId, deviceTemplateId, day, createdAt) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
          [
            gate.subjectId,
            person.actionId,
            person.id,
            effect.type,
            gate.deviceId,
            gate.template.id,
            effect.day,
            date(at),
          ],
        );
      } else if (effect.kind === 'credit') {
        const amount = Math.abs(effect.amount);
        if (!person.isUnlimited && amount > 0) {
          // online a balance never goes below 0 (D13); an offline deduction is taken as it happened
          // (D20), down to what the int column holds (a station's replayed upload must never fail)
          const res = (yield input.offline
            ? run(
                'UPDATE accreditation SET credit = CASE WHEN COALESCE(credit, 0) - ? < ? THEN ? ELSE COALESCE(credit, 0) - ? END, updatedAt = ? WHERE id = ?',
                [amount, CREDIT_FLOOR, CREDIT_FLOOR, amount, date(new Date()), person.id],
              )
            : run(
                'UPDATE accreditation SET credit = COALESCE(credit, 0) - ?, updatedAt = ? WHERE id = ? AND COALESCE(credit, 0) >= ?',
                [amount, date(new Date()), person.id, amount],
              )) as WriteResult;
          if (!res.changes) throw new AppError('CREDIT_NOT_ENOUGH');
          if (shown) shown.credit = Math.max(CREDIT_FLOOR, person.credit - amount);
        }
        yield run(
          'INSERT INTO credit_transaction (subjectId, accreditationId, type, price, deviceId, adminUserId, createdAt) VALUES (?, ?, 2, ?, ?, NULL, ?)',
          [gate.subjectId, person.id, -amount, gate.deviceId, date(at)],
        );
      } else if (effect.kind === 'meal' || effect.kind === 'parking') {
        yield* gateExtensionEffect(effect, person.id, date(at));
      }
      // a zone check is the scan row itself
    }
  }

  if (input.offline && !person) {
    yield run(
      'INSERT INTO device_failed_scan (subjectId, deviceId, nonce, code, reason, scanAt, createdAt) VALUES (?, ?, ?, ?, ?, ?, ?)',
      [
        gate.subjectId,
        gate.deviceId,
        input.nonce,
        storedCode(input.rawCode),
        decision.reason,
        date(at),
        date(new Date()),
      ],
    );
  }

  const violation = input.offline && input.stationAllowed !== null && input.stationAllowed !== decision.allowed;
  const answer: ScanAnswer = {
    nonce: input.nonce,
    allowed: decision.allowed,
    reason: decision.reason,
    data: decision.data,
    info: decision.info,
    effects: decision.effects,
    direction: input.direction,
    at: at.toISOString(),
    person: shown,
    offline: input.offline,
    violation,
  };
  const json = JSON.stringify(answer);
  yield run(
    'INSERT INTO device_scan (subjectId, deviceId, nonce, requestHash, actionId, deviceTemplateId, accreditationId, direction, allowed, reason, decision, offline, violation, scanAt, day, deviceTime, createdAt) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    [
      gate.subjectId,
      gate.deviceId,
      input.nonce,
      input.requestHash,
      gate.action?.id ?? null,
      gate.template?.id ?? null,
      person?.id ?? null,
      input.direction === 'entry' ? 1 : 0,
      decision.allowed ? 1 : 0,
      decision.reason,
      json,
      input.offline ? 1 : 0,
      violation ? 1 : 0,
      date(at),
      day,
      input.deviceTime === null || Number.isNaN(input.deviceTime) ? null : date(new Date(input.deviceTime)),
      date(new Date()),
    ],
  );
  return { kind: 'answer', answer, json };
}
