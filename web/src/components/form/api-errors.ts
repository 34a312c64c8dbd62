import type { FieldPath, FieldValues, UseFormSetError } from 'react-hook-form';
import { ApiError } from '../../api/client';

/**
 * Puts the server's field errors (`details.fields`, message keys of spec §5) onto the form's
 * fields; the inputs translate the key like any client-side error. Returns whether any was set.
 */
export function applyFieldErrors<T extends FieldValues>(error: unknown, setError: UseFormSetError<T>): boolean {
  if (!(error instanceof ApiError) || error.fields.length === 0) return false;
  error.fields.forEach((field, index) => {
    setError(field.path as FieldPath<T>, { type: 'server', message: field.key }, { shouldFocus: index === 0 });
  });
  return true;
}
