import type { z } from 'zod';
import type { AccreditationDto, accreditationSchema, CheckedAccreditationDto, CustomFieldValue } from '@accredo/domain';
import { adminConfig } from './admin';
import { type Method, request } from './client';

const call = <T>(method: Method, path: string, body?: unknown) => request<T>(adminConfig, method, path, body);

export type { AccreditationDto, CheckedAccreditationDto, CustomFieldValue };

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
  /** the person of a badge's code (a versioned one too); `checked` tells which badge was read */
  check: (bc: string) => call<CheckedAccreditationDto>('GET', `user/check/${encodeURIComponent(bc)}`),
  credit: (userId: number) => call<CreditInfo>('GET', `user-credit/${userId}`),
  /** 409 CREDIT_NOT_ENOUGH when removing more than the balance */
  changeCredit: (userId: number, body: CreditChangePayload) => call<CreditInfo>('PUT', `user-credit/${userId}`, body),
  setUnlimited: (userId: number, isUnlimited: boolean) =>
    call<CreditInfo>('PUT', `user-credit/${userId}/unlimited`, { isUnlimited }),
};
