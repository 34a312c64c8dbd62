import type { ReactNode } from 'react';
import type { FieldValues, UseFormReturn } from 'react-hook-form';
import { useLocation, useNavigate } from 'react-router';
import { ApiError } from '../../api/client';
import { notifyError } from '../../app/notify';
import { applyFieldErrors } from './api-errors';
import { FormFields, ReadOnlyProvider } from './read-only';
import { SaveBar } from './save-bar';
import { useSaveShortcut } from './use-save-shortcut';
import { useUnsavedChangesGuard } from './use-unsaved-guard';

export interface SaveResult<TValues> {
  /** the values the form holds from now on (its new clean state); the submitted ones by default */
  values?: TValues;
  /** where to go after saving, e.g. the detail after a create */
  navigateTo?: string;
}

export interface FormShellProps<TValues extends FieldValues, TOut> {
  form: UseFormReturn<TValues, unknown, TOut>;
  /** saves the parsed values; throw to report a failure */
  onSave: (values: TOut) => Promise<SaveResult<TValues> | undefined>;
  /** reacts to a failed save by code (e.g. USER_EXIST); return true when handled */
  onError?: (error: unknown) => boolean;
  /** toast of an unhandled failure */
  saveErrorKey?: string;
  /** for looking only (no update right): fields disabled, no save bar, the header says so */
  readOnly?: boolean;
  /** false when the page wraps its own field areas in FormFields (tabbed forms, so tabs still switch) */
  wrapFields?: boolean;
  /** a form that creates a record (by default: the route ends in `/create`, as every create route of spec §2) */
  create?: boolean;
  children: ReactNode;
}

/**
 * The behaviour every form shares (spec §2, §4): a save/discard bar while dirty, Ctrl/Cmd+S,
 * a confirmation before leaving with unsaved changes, a working state while saving, and the
 * server's field errors shown on their inputs.
 */
export function FormShell<TValues extends FieldValues, TOut>({
  form,
  onSave,
  onError,
  saveErrorKey = 'basics.saveError',
  readOnly = false,
  wrapFields = true,
  create,
  children,
}: FormShellProps<TValues, TOut>) {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const creating = create ?? pathname.endsWith('/create');
  const { isDirty, isSubmitting } = form.formState;
  const guard = useUnsavedChangesGuard(isDirty && !readOnly);

  const submit = form.handleSubmit(async (values) => {
    try {
      const result = await onSave(values);
      form.reset(result?.values ?? form.getValues());
      if (result?.navigateTo) {
        guard.allowNextNavigation();
        navigate(result.navigateTo);
      }
    } catch (error) {
      if (onError?.(error)) return;
      if (applyFieldErrors(error, form.setError)) {
        notifyError('errors.VALIDATION_ERROR');
        return;
      }
      notifyError(error instanceof ApiError && error.status === 0 ? 'basics.unexpectedError' : saveErrorKey);
    }
  });

  // Ctrl/Cmd+S saves what changed; on an untouched create form it checks the fields and shows what is missing.
  useSaveShortcut(() => {
    if (!readOnly && (form.formState.isDirty || creating) && !form.formState.isSubmitting) void submit();
  });
  const dirty = isDirty && !readOnly;

  return (
    <ReadOnlyProvider value={readOnly}>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (!readOnly) void submit();
        }}
      >
        {wrapFields ? <FormFields>{children}</FormFields> : children}
        {/* Room below the last field, so the floating save bar never covers it. */}
        {dirty && <div style={{ height: 88 }} aria-hidden />}
        <SaveBar visible={dirty} busy={isSubmitting} onSave={() => void submit()} onDiscard={() => form.reset()} />
      </form>
    </ReadOnlyProvider>
  );
}
