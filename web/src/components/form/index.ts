export { applyFieldErrors } from './api-errors';
export { FormShell, type FormShellProps, type SaveResult } from './form-shell';
export { FormFields, ReadOnlyProvider, useReadOnly } from './read-only';
export { SaveBar } from './save-bar';
export { MultiSelectField, SelectField } from './select-field';
export { SwitchField } from './switch-field';
export { useFieldError } from './use-field-error';
export { useSaveShortcut } from './use-save-shortcut';
export { useUnsavedChangesGuard } from './use-unsaved-guard';
