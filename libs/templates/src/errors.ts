/**
 * A template that cannot be rendered: a syntax error (an unclosed `{{#each}}`, a stray `}}`), a helper
 * the engine does not offer, a partial, or a code that cannot be drawn. The message says what and
 * where (line, and column where the engine can tell) in words an admin can act on; it never carries a
 * stack trace. The backend answers it as `400 TEMPLATE_SYNTAX_ERROR` with the message, line and
 * column in the details (the editor marks the place).
 */
export class TemplateError extends Error {
  readonly code = 'TEMPLATE_SYNTAX_ERROR' as const;
  constructor(
    message: string,
    /** 1-based line of the template, when known */
    readonly line: number | null,
    /** 1-based column of that line (as the admin wrote it), when known */
    readonly column: number | null = null,
  ) {
    super(message);
    this.name = 'TemplateError';
  }
}

export function isTemplateError(error: unknown): error is TemplateError {
  return error instanceof TemplateError;
}
