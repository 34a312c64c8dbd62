import type { AddressValue } from '@accredo/domain';
import { Checkbox, FileInput, Image, MultiSelect, Select, Stack, TextInput } from '@mantine/core';
import { type Control, type FieldValues, type UseFormReturn, useController } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { AddressInput } from '../../../components/address-input';
import { LazyNumberInput as NumberInput } from '../../../components/lazy-number-input';
import { checkImageFile, readAsDataUrl } from '../../gallery/gallery-constants';
import { FIELD_TYPE, type FieldDef } from './form-values';

/** A form holding user-field values by field id (the accreditation form, the online registration form). */
export interface CustomFieldFormValues {
  customField: Record<string, unknown>;
}

export interface CustomFieldInputProps {
  field: FieldDef;
  control: Control<CustomFieldFormValues, unknown, unknown>;
  /** the translated error of a path, e.g. `customField.12` */
  error: (path: string) => string | undefined;
  setError: (key: string | null) => void;
}

/**
 * Every user field of the action in order (the accreditation form, the online registration form);
 * a field's own check (an address not picked, a bad photo) is kept as an error on its path.
 */
export function CustomFieldInputs<TValues extends FieldValues & CustomFieldFormValues, TOut>({
  fields,
  form,
  error,
}: {
  fields: FieldDef[];
  form: UseFormReturn<TValues, unknown, TOut>;
  error: (path: string) => string | undefined;
}) {
  const own = form as unknown as UseFormReturn<CustomFieldFormValues>;
  return fields.map((field) => (
    <CustomFieldInput
      key={field.id}
      field={field}
      control={own.control as never}
      error={error}
      setError={(key) =>
        key
          ? own.setError(`customField.${field.id}`, { type: 'manual', message: key })
          : own.clearErrors(`customField.${field.id}`)
      }
    />
  ));
}

/** One user field of the action, by its type (spec §3 User field, §5), labelled, with its help text and mandatory flag. */
export function CustomFieldInput({ field, control, error, setError }: CustomFieldInputProps) {
  const { t } = useTranslation();
  const name = `customField.${field.id}` as const;
  const { field: input } = useController({ control, name });
  const common = {
    label: field.label,
    description: field.help || undefined,
    required: field.mandatory,
    error: error(name),
    onBlur: input.onBlur,
  };
  const options = field.options.map((o) => ({ value: String(o.id), label: o.value }));

  switch (field.type) {
    case FIELD_TYPE.NUMBER:
      return (
        <NumberInput
          {...common}
          ref={input.ref}
          value={(input.value as number | string | null) ?? ''}
          onChange={(value) => input.onChange(value)}
        />
      );
    case FIELD_TYPE.SELECT_MULTI:
      return (
        <MultiSelect
          {...common}
          ref={input.ref}
          data={options}
          clearable
          searchable
          value={(input.value as string[] | null) ?? []}
          onChange={(value) => input.onChange(value)}
        />
      );
    case FIELD_TYPE.SELECT:
      return (
        <Select
          {...common}
          ref={input.ref}
          data={options}
          clearable
          searchable
          value={(input.value as string | null) ?? null}
          onChange={(value) => input.onChange(value ?? null)}
        />
      );
    case FIELD_TYPE.ADDRESS:
      return (
        <AddressInput
          label={field.label}
          description={common.description}
          required={field.mandatory}
          error={common.error}
          value={input.value as Partial<AddressValue> | null}
          onChange={(value) => input.onChange(value)}
          onBlur={input.onBlur}
          inputRef={input.ref}
        />
      );
    case FIELD_TYPE.BOOL:
      return (
        <Checkbox
          label={field.label}
          description={common.description}
          required={field.mandatory}
          error={common.error}
          ref={input.ref}
          checked={input.value === true}
          onChange={(e) => input.onChange(e.currentTarget.checked)}
          onBlur={input.onBlur}
        />
      );
    case FIELD_TYPE.IMAGE: {
      const value = typeof input.value === 'string' && input.value ? input.value : null;
      return (
        <Stack gap={4}>
          <FileInput
            {...common}
            ref={input.ref}
            accept="image/png,image/jpeg,image/gif,.png,.jpg,.jpeg,.gif"
            placeholder={value ? t('accreditationDetail.imageChosen') : t('accreditationDetail.chooseFile')}
            clearable
            onChange={async (file) => {
              if (!file) {
                input.onChange(null);
                setError(null);
                return;
              }
              const key = checkImageFile(file);
              if (key) {
                setError(key);
                return;
              }
              try {
                input.onChange(await readAsDataUrl(file));
                setError(null);
              } catch {
                setError('photo.invalidData');
              }
            }}
          />
          {value && <Image src={value} alt={field.label} h={80} w="auto" fit="contain" maw={200} />}
        </Stack>
      );
    }
    case FIELD_TYPE.EMAIL:
      return (
        <TextInput
          {...common}
          type="email"
          ref={input.ref}
          value={(input.value as string | null) ?? ''}
          onChange={(e) => input.onChange(e.currentTarget.value)}
        />
      );
    case FIELD_TYPE.PHONE:
      return (
        <TextInput
          {...common}
          type="tel"
          placeholder="+420 123 456 789"
          ref={input.ref}
          value={(input.value as string | null) ?? ''}
          onChange={(e) => input.onChange(e.currentTarget.value)}
        />
      );
    default:
      return (
        <TextInput
          {...common}
          ref={input.ref}
          value={(input.value as string | null) ?? ''}
          onChange={(e) => input.onChange(e.currentTarget.value)}
        />
      );
  }
}
