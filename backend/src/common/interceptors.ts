import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import { Observable, map } from 'rxjs';
import { runInTenant } from '../database/tenant.js';
import type { AppRequest } from './request.js';

/** Runs an admin's (or a paired device's) request handler inside its subject, so the tenant repositories scope every query. */
@Injectable()
export class TenantInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const auth = context.switchToHttp().getRequest<AppRequest>().auth;
    if (auth?.kind !== 'admin' && auth?.kind !== 'device') return next.handle();
    return new Observable((subscriber) => runInTenant(auth.subjectId, () => next.handle().subscribe(subscriber)));
  }
}

/** An answer whose top level is already the envelope (paged lists: `{data, max, …}` of spec §7). */
export class Envelope {
  constructor(readonly body: { data: unknown; [key: string]: unknown }) {}
}
export const paged = <T>(data: T[], max: number, extra: Record<string, unknown> = {}) =>
  new Envelope({ data, max, ...extra });

/** Every JSON answer is wrapped as `{data: …}` (spec §7); files and streams pass through. */
@Injectable()
export class DataEnvelopeInterceptor implements NestInterceptor {
  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(
      map((value) => {
        if (value instanceof Envelope) return value.body;
        if (
          value &&
          typeof value === 'object' &&
          (Buffer.isBuffer(value) || typeof (value as { pipe?: unknown }).pipe === 'function')
        ) {
          return value;
        }
        return { data: value ?? null };
      }),
    );
  }
}
