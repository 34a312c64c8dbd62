import { TextInput } from '@mantine/core';
import { type ComponentType, lazy, type ReactNode, Suspense } from 'react';
import { type Control, type FieldPath, type FieldValues, useController } from 'react-hook-form';

/**
 * Day, date-time and time fields that show and take dates in the UI language (issue 15), not in the
 * browser's as the native date inputs did. They hold the same strings the native inputs held, so
 * what is sent to the API is unchanged: a day `YYYY-MM-DD`, a moment `YYYY-MM-DDTHH:mm`, a time
 * `HH:mm`; '' when empty. The pickers (@mantine/dates, dayjs and its locales) are a chunk of their
 * own, loaded with the first page that shows one; meanwhile a read-only box of the same size stands in.
 */
interface FieldBase {
  label?: ReactNode;
  description?: ReactNode;
  error?: ReactNode;
  required?: boolean;
  disabled?: boolean;
  w?: number | string;
  mb?: number | string;
}
export interface DateFieldProps extends FieldBase {
  value: string;
  onChange: (value: string) => void;
}
export type DateTimeFieldProps = DateFieldProps;
export type TimeFieldProps = DateFieldProps;

type Pickers = typeof import('./date-pickers');
let loaded: Pickers | null = null;
let loading: Promise<Pickers> | null = null;
/** Loads the pickers' chunk (the web tests do it up front, so the fields render at once). */
export function preloadDatePickers(): Promise<Pickers> {
  loading ??= import('./date-pickers').then((module) => {
    loaded = module;
    return module;
  });
  return loading;
}

type PickerName = 'DatePickerField' | 'DateTimePickerField' | 'TimePickerField';
const lazyPicker = (name: PickerName) =>
  lazy(async () => ({ default: (await preloadDatePickers())[name] as ComponentType<DateFieldProps> }));
const LAZY: Record<PickerName, ComponentType<DateFieldProps>> = {
  DatePickerField: lazyPicker('DatePickerField'),
  DateTimePickerField: lazyPicker('DateTimePickerField'),
  TimePickerField: lazyPicker('TimePickerField'),
};

function Picker({ name, ...props }: DateFieldProps & { name: PickerName }) {
  const Loaded = loaded?.[name] as ComponentType<DateFieldProps> | undefined;
  if (Loaded) return <Loaded {...props} />;
  const Lazy = LAZY[name];
  const { value, onChange: _, ...rest } = props;
  return (
    <Suspense fallback={<TextInput {...rest} value={value} readOnly />}>
      <Lazy {...props} />
    </Suspense>
  );
}

/** A day, `YYYY-MM-DD`. */
export const DateField = (props: DateFieldProps) => <Picker name="DatePickerField" {...props} />;
/** A moment, `YYYY-MM-DDTHH:mm`. */
export const DateTimeField = (props: DateTimeFieldProps) => <Picker name="DateTimePickerField" {...props} />;
/** A time of day, `HH:mm`. */
export const TimeField = (props: TimeFieldProps) => <Picker name="TimePickerField" {...props} />;

/** A react-hook-form field of `control` at `name` shown by `Field`; `deps` revalidate with it, `onValueChange` follows a change. */
export function FormDateField<T extends FieldValues, C = unknown, O = T>({
  control,
  name,
  deps,
  onValueChange,
  kind = 'date',
  ...props
}: FieldBase & {
  control: Control<T, C, O>;
  name: FieldPath<T>;
  deps?: FieldPath<T>[];
  onValueChange?: (value: string) => void;
  kind?: 'date' | 'datetime';
}) {
  const { field } = useController({ control, name, rules: deps ? { deps } : undefined });
  const Field = kind === 'datetime' ? DateTimeField : DateField;
  return (
    <Field
      {...props}
      value={(field.value as string | null | undefined) ?? ''}
      onChange={(value) => {
        field.onChange(value);
        field.onBlur();
        onValueChange?.(value);
      }}
    />
  );
}
