import type { z } from 'zod';
import type { accreditationSchema } from '@accredo/domain';
import { adminConfig } from './admin';
import { type Method, request } from './client';

const call = <T>(method: Method, path: string, body?: unknown) => request<T>(adminConfig, method, path, body);

/** One user-field value of an accreditation; the value's shape depends on the field type (spec §3). */
export interface CustomFieldValue {
  id: number;
  value: unknown;
}

/** An accreditation as `GET user/{actionId}/{id}`, `POST user`, `PUT user/{id}` and `GET user/check/{bc}` answer. */
export interface AccreditationDto {
  id: number;
  /** the order of the accreditation in its action */
  customId: number;
  actionId: number;
  firstname: string;
  lastname: string;
  email: string;
  /** the barcode / QR value */
  bc: string;
  groups: { id: number; name: string }[];
  groupIds: number[];
  zones: { id: number; name: string }[];
  zoneIds: number[];
  days: string[];
  customField: CustomFieldValue[];
  image: { id: number; path: string } | null;
  printCount: number;
  credit: number | null;
  isUnlimited: boolean;
  dateCreate: string;
  source?: string | null;
}

/** The body of `POST user` / `PUT user/{id}`: the output of the shared `accreditationSchema`. */
export type AccreditationPayload = z.output<typeof accreditationSchema>;

/** Credit transaction types (spec §3): 1 deposit, 2 withdrawal, 3 correction. */
export type CreditTransactionType = 1 | 2 | 3;

export interface CreditTransaction {
  date: string;
  type: CreditTransactionType;
  device: string | null;
  adminUser: string | null;
  price: number;
}

/** `GET user-credit/{userId}` and `PUT user-credit/{userId}`. */
export interface CreditInfo {
  credit: number | null;
  isUnlimited: boolean;
  history: CreditTransaction[];
}

/** The body of `PUT user-credit/{userId}`: 1 add, 3 remove. */
export interface CreditChangePayload {
  price: number;
  type: 1 | 3;
}

export const ACCREDITATION_KEY = ['admin', 'accreditation'] as const;
export const accreditationKey = (actionId: number, id: number) => [...ACCREDITATION_KEY, actionId, id] as const;
export const accreditationByBcKey = (bc: string) => [...ACCREDITATION_KEY, 'bc', bc] as const;
export const creditKey = (userId: number) => ['admin', 'user-credit', userId] as const;

export const accreditationApi = {
  get: (actionId: number, id: number) => call<AccreditationDto>('GET', `user/${actionId}/${id}`),
  create: (body: AccreditationPayload) => call<AccreditationDto>('POST', 'user', body),
  update: (id: number, body: AccreditationPayload) => call<AccreditationDto>('PUT', `user/${id}`, body),
  /** 404 BC_NOT_EXIST when no accreditation has the code */
  check: (bc: string) => call<AccreditationDto>('GET', `user/check/${encodeURIComponent(bc)}`),
  credit: (userId: number) => call<CreditInfo>('GET', `user-credit/${userId}`),
  /** 409 CREDIT_NOT_ENOUGH when removing more than the balance */
  changeCredit: (userId: number, body: CreditChangePayload) => call<CreditInfo>('PUT', `user-credit/${userId}`, body),
};
