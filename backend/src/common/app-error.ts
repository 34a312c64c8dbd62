import { ERRORS, type ErrorCode, type FieldError } from '@accredo/domain';

/**
 * The one exception a service throws for anything a client caused. The error filter turns it into
 * `{error: {code, message, details}}` with the catalogue's HTTP status.
 */
export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    readonly details: Record<string, unknown> = {},
    message?: string,
  ) {
    super(message ?? code);
    this.status = ERRORS[code].status;
  }

  static validation(fields: FieldError[]): AppError {
    return new AppError('VALIDATION_ERROR', { fields });
  }

  static notFound(): AppError {
    return new AppError('NOT_FOUND');
  }
}
