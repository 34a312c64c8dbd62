import { Checkbox, Switch } from '@mantine/core';
import { type Control, type FieldPath, type FieldValues, useController } from 'react-hook-form';

export interface BooleanFieldProps<T extends FieldValues, TOut> {
  control: Control<T, unknown, TOut>;
  name: FieldPath<T>;
  label: string;
  description?: string;
  disabled?: boolean;
  kind?: 'switch' | 'checkbox';
  error?: string;
  /** runs after the form value changed, e.g. to update dependent values */
  onValueChange?: (checked: boolean) => void;
}

/** A switch or checkbox bound to a boolean form value. */
export function BooleanField<T extends FieldValues, TOut>({
  control,
  name,
  label,
  description,
  disabled,
  kind = 'switch',
  error,
  onValueChange,
}: BooleanFieldProps<T, TOut>) {
  const { field } = useController({ control, name });
  const Component = kind === 'switch' ? Switch : Checkbox;
  return (
    <Component
      label={label}
      description={description}
      disabled={disabled}
      checked={Boolean(field.value)}
      error={error}
      onChange={(event) => {
        const checked = event.currentTarget.checked;
        field.onChange(checked);
        onValueChange?.(checked);
      }}
      onBlur={field.onBlur}
      ref={field.ref}
      name={field.name}
    />
  );
}
