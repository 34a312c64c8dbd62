import { MultiSelect, type MultiSelectProps, Select, type SelectProps } from '@mantine/core';
import { type Control, Controller, type FieldValues, type Path } from 'react-hook-form';
import { useTranslation } from 'react-i18next';

type Bound<TValues extends FieldValues, TOut> = { control: Control<TValues, unknown, TOut>; name: Path<TValues> };

/**
 * A choice of a form as a Mantine select. `empty` is what a cleared select stores (null unless
 * the field needs a string); `onChange` replaces the plain store where a change does more. A search
 * that finds nothing says so (basics.noData) unless told otherwise.
 */
export function SelectField<TValues extends FieldValues, TOut>({
  control,
  name,
  empty = null,
  onChange,
  ...props
}: Bound<TValues, TOut> & {
  empty?: string | null;
  onChange?: (value: string | null) => void;
} & Omit<SelectProps, 'value' | 'onChange' | 'onBlur' | 'name'>) {
  const { t } = useTranslation();
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <Select
          nothingFoundMessage={t('basics.noData')}
          {...props}
          value={field.value ?? null}
          onChange={(value) => (onChange ? onChange(value) : field.onChange(value ?? empty))}
          onBlur={field.onBlur}
          ref={field.ref}
        />
      )}
    />
  );
}

/** A choice of several of a form as a Mantine multi-select. */
export function MultiSelectField<TValues extends FieldValues, TOut, V extends string | number = string>({
  control,
  name,
  ...props
}: Bound<TValues, TOut> & Omit<MultiSelectProps<V>, 'value' | 'onChange' | 'onBlur' | 'name'>) {
  const { t } = useTranslation();
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <MultiSelect<V>
          nothingFoundMessage={t('basics.noData')}
          {...props}
          value={field.value}
          onChange={field.onChange}
          onBlur={field.onBlur}
          ref={field.ref}
        />
      )}
    />
  );
}
