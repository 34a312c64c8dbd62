/**
 * The error catalogue (spec §8) as data: every error a client can cause has a stable code, an HTTP
 * status and a message key in the i18n catalogue (`errors.<CODE>`). The backend answers
 * `{error: {code, message, details}}`; the web app picks its reaction by code.
 */
export const ERRORS = {
  VALIDATION_ERROR: { status: 400, key: 'errors.VALIDATION_ERROR' },
  BAD_REQUEST: { status: 400, key: 'errors.BAD_REQUEST' },
  UNAUTHORIZED: { status: 401, key: 'errors.UNAUTHORIZED' },
  TOKEN_EXPIRED: { status: 401, key: 'errors.TOKEN_EXPIRED' },
  TOKEN_INVALID: { status: 401, key: 'errors.TOKEN_INVALID' },
  INVALID_LOGIN: { status: 401, key: 'basics.nonValidLoginData' },
  ADMIN_USER_NOT_VERIFIED: { status: 403, key: 'errors.ADMIN_USER_NOT_VERIFIED' },
  FORBIDDEN: { status: 403, key: 'errors.FORBIDDEN' },
  NOT_FOUND: { status: 404, key: 'errors.NOT_FOUND' },
  LINK_INVALID: { status: 404, key: 'basics.enteredLinkNotExist' },
  EMAIL_NOT_FOUND: { status: 404, key: 'basics.forgotPasswordInvalidEmail' },
  USER_EXIST: { status: 409, key: 'errors.USER_EXIST' },
  ADMIN_USER_ALREADY_VERIFIED: { status: 409, key: 'basics.adminUserAlreadyVerified' },
  SUBJECT_KEY_EXIST: { status: 409, key: 'errors.SUBJECT_KEY_EXIST' },
  SUBJECT_PATH_EXIST: { status: 409, key: 'errors.SUBJECT_PATH_EXIST' },
  SUBJECT_PATH_FIXED: { status: 409, key: 'errors.SUBJECT_PATH_FIXED' },
  SUBJECT_DOESNT_EXIST: { status: 404, key: 'errors.SUBJECT_DOESNT_EXIST' },
  EMAIL_NOT_VALID: { status: 400, key: 'basics.emailNotValid' },
  EMAIL_EXIST: { status: 409, key: 'errors.EMAIL_EXIST' },
  BC_NOT_EXIST: { status: 404, key: 'user.bcNotExist' },
  ACTION_DOESNT_EXIST: { status: 404, key: 'errors.ACTION_DOESNT_EXIST' },
  CREDIT_NOT_ENOUGH: { status: 409, key: 'errors.CREDIT_NOT_ENOUGH' },
  IMPORT_FAILED: { status: 400, key: 'errors.IMPORT_FAILED' },
  DATA_BASE64_INVALID: { status: 400, key: 'errors.DATA_BASE64_INVALID' },
  INVALID_IMPORT_FILE_FORMAT: { status: 400, key: 'errors.INVALID_IMPORT_FILE_FORMAT' },
  IMPORT_FILE_EMPTY: { status: 400, key: 'errors.IMPORT_FILE_EMPTY' },
  IMPORT_COLUMNS_MISMATCH: { status: 400, key: 'errors.IMPORT_COLUMNS_MISMATCH' },
  /** the upload route: an old binary .xls (by its first bytes), to be saved as .xlsx */
  IMPORT_FILE_XLS: { status: 400, key: 'errors.IMPORT_FILE_XLS' },
  /** the upload route: the file went over the import's limit while it streamed in (details.limitMb) */
  IMPORT_FILE_TOO_LARGE: { status: 413, key: 'errors.IMPORT_FILE_TOO_LARGE' },
  /** this server is already reading as many sheets as it takes at once, with a queue full behind them (details.retryAfter, seconds) */
  IMPORT_BUSY: { status: 503, key: 'errors.IMPORT_BUSY' },
  NO_PHOTOS_TO_EXPORT: { status: 400, key: 'errors.NO_PHOTOS_TO_EXPORT' },
  GEOCODING_DISABLED: { status: 404, key: 'errors.GEOCODING_DISABLED' },
  GEOCODING_FAILED: { status: 502, key: 'errors.GEOCODING_FAILED' },
  GEOCODING_TIMEOUT: { status: 504, key: 'errors.GEOCODING_TIMEOUT' },
  TEMPLATE_SYNTAX_ERROR: { status: 400, key: 'errors.TEMPLATE_SYNTAX_ERROR' },
  PDF_NOT_AVAILABLE: { status: 400, key: 'errors.PDF_NOT_AVAILABLE' },
  PDF_RENDERER_MISSING: { status: 503, key: 'errors.PDF_RENDERER_MISSING' },
  PDF_JOB_NOT_READY: { status: 409, key: 'errors.PDF_JOB_NOT_READY' },
  PDF_JOB_EXPIRED: { status: 410, key: 'errors.PDF_JOB_EXPIRED' },
  PDF_JOB_NOT_FAILED: { status: 409, key: 'errors.PDF_JOB_NOT_FAILED' },
  PDF_JOB_RETRY_USED: { status: 409, key: 'errors.PDF_JOB_RETRY_USED' },
  NOTHING_TO_PRINT: { status: 400, key: 'errors.NOTHING_TO_PRINT' },
  TOO_MANY_TO_PRINT: { status: 400, key: 'errors.TOO_MANY_TO_PRINT' },
  PRINT_NO_GROUP: { status: 409, key: 'errors.PRINT_NO_GROUP' },
  PRINT_NO_TEMPLATE: { status: 409, key: 'errors.PRINT_NO_TEMPLATE' },
  PAYLOAD_TOO_LARGE: { status: 413, key: 'errors.PAYLOAD_TOO_LARGE' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, key: 'errors.UNSUPPORTED_MEDIA_TYPE' },
  METHOD_NOT_ALLOWED: { status: 405, key: 'errors.METHOD_NOT_ALLOWED' },
  REQUEST_TIMEOUT: { status: 408, key: 'errors.REQUEST_TIMEOUT' },
  URI_TOO_LONG: { status: 414, key: 'errors.URI_TOO_LONG' },
  HEADERS_TOO_LARGE: { status: 431, key: 'errors.HEADERS_TOO_LARGE' },
  TOO_MANY_REQUESTS: { status: 429, key: 'errors.TOO_MANY_REQUESTS' },
  WEB_CHANNEL_DOESNT_EXIST: { status: 404, key: 'errors.WEB_CHANNEL_DOESNT_EXIST' },
  WEB_CHANNEL_NOT_ACTIVE: { status: 403, key: 'errors.WEB_CHANNEL_NOT_ACTIVE' },
  WEB_CHANNEL_NOT_ACTIVE_YET: { status: 403, key: 'errors.WEB_CHANNEL_NOT_ACTIVE_YET' },
  WEB_CHANNEL_IS_CLOSED: { status: 403, key: 'errors.WEB_CHANNEL_IS_CLOSED' },
  AUTH_INVALID: { status: 401, key: 'errors.AUTH_INVALID' },
  USER_DOESNT_EXIST: { status: 401, key: 'errors.USER_DOESNT_EXIST' },
  INVALID_WEB_CHANNEL_CODE: { status: 401, key: 'errors.INVALID_WEB_CHANNEL_CODE' },
  USED_WEB_CHANNEL_CODE: { status: 403, key: 'errors.USED_WEB_CHANNEL_CODE' },
  WEB_CHANNEL_USER_EXIST: { status: 409, key: 'errors.WEB_CHANNEL_USER_EXIST' },
  EXTERNAL_CODE_EXIST: { status: 409, key: 'errors.EXTERNAL_CODE_EXIST' },
  EXTERNAL_CODE_USED: { status: 409, key: 'errors.EXTERNAL_CODE_USED' },
  DEVICE_PAIR_CODE_INVALID: { status: 400, key: 'errors.DEVICE_PAIR_CODE_INVALID' },
  DEVICE_UID_EXIST: { status: 409, key: 'errors.DEVICE_UID_EXIST' },
  NONCE_CONFLICT: { status: 409, key: 'errors.NONCE_CONFLICT' },
  ACTION_EXTENSION_DOESNT_EXIST: { status: 404, key: 'errors.ACTION_EXTENSION_DOESNT_EXIST' },
  ACTION_DOESNT_HAVE_EXTENSION: { status: 403, key: 'errors.ACTION_DOESNT_HAVE_EXTENSION' },
  EXTENSION_CAPACITY_FULL: { status: 409, key: 'actionExtension.capacityFull' },
  EXTENSION_MEAL_USED: { status: 409, key: 'actionExtension.used' },
  EXTENSION_ITEM_INVALID: { status: 400, key: 'errors.EXTENSION_ITEM_INVALID' },
  PREVIEW_NOT_FOUND: { status: 404, key: 'preview.pageNotFound' },
  PREVIEW_SELECT_CLOSED: { status: 403, key: 'preview.selectClosed' },
  // Deletes refused because something still uses the record (details name what; the message interpolates them).
  GROUP_HAS_PEOPLE: { status: 409, key: 'errors.GROUP_HAS_PEOPLE' },
  ZONE_USED_BY_GROUPS: { status: 409, key: 'errors.ZONE_USED_BY_GROUPS' },
  CUSTOM_FIELD_USED_BY_ACTIONS: { status: 409, key: 'errors.CUSTOM_FIELD_USED_BY_ACTIONS' },
  TEMPLATE_IN_USE: { status: 409, key: 'errors.TEMPLATE_IN_USE' },
  WEB_CHANNEL_HAS_REGISTRATIONS: { status: 409, key: 'errors.WEB_CHANNEL_HAS_REGISTRATIONS' },
  ADMIN_USER_DELETE_SELF: { status: 409, key: 'errors.ADMIN_USER_DELETE_SELF' },
  ACTION_HAS_ACCREDITATIONS: { status: 409, key: 'errors.ACTION_HAS_ACCREDITATIONS' },
  IMAGE_IN_USE: { status: 409, key: 'errors.IMAGE_IN_USE' },
  // Archived records (issue 15) are no target of anything new: an archived action takes no people.
  ACTION_ARCHIVED: { status: 409, key: 'errors.ACTION_ARCHIVED' },
  INTERNAL_ERROR: { status: 500, key: 'errors.INTERNAL_ERROR' },
} as const satisfies Record<string, { status: number; key: string }>;

export type ErrorCode = keyof typeof ERRORS;

export interface FieldError {
  /** dotted path of the field, e.g. `login` or `rights.user.getUser` */
  path: string;
  /** message key of spec §5, e.g. `basics.requireField` */
  key: string;
}

export interface ErrorBody {
  error: {
    code: ErrorCode | string;
    message: string;
    details?: { fields?: FieldError[]; requestId?: string; [k: string]: unknown };
  };
}

export function isErrorBody(value: unknown): value is ErrorBody {
  return Boolean(
    value && typeof value === 'object' && 'error' in value && typeof (value as ErrorBody).error?.code === 'string',
  );
}
