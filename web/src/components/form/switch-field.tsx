import { Switch, type SwitchProps } from '@mantine/core';
import { type Control, Controller, type FieldValues, type Path } from 'react-hook-form';

/** A yes/no field of a form as a switch (its label, description and the like as Mantine's). */
export function SwitchField<TValues extends FieldValues, TOut>({
  control,
  name,
  ...props
}: { control: Control<TValues, unknown, TOut>; name: Path<TValues> } & Omit<
  SwitchProps,
  'checked' | 'onChange' | 'onBlur' | 'name' | 'value'
>) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <Switch
          {...props}
          checked={Boolean(field.value)}
          onChange={(event) => field.onChange(event.currentTarget.checked)}
          onBlur={field.onBlur}
          ref={field.ref}
        />
      )}
    />
  );
}
