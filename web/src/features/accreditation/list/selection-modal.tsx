import { Alert, Button, Group } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { WorkingButton } from '../../../components/working-button';

/** Cancel and the submit button of a modal that works on the list's selection. */
export function ModalActions({
  onClose,
  busy,
  label,
  color,
  disabled,
}: {
  onClose: () => void;
  busy: boolean;
  label: string;
  color?: string;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Group justify="flex-end" mt="md">
      <Button variant="default" onClick={onClose}>
        {t('basics.cancel')}
      </Button>
      <WorkingButton type="submit" busy={busy} color={color} disabled={disabled}>
        {label}
      </WorkingButton>
    </Group>
  );
}

/** What a selection modal shows when nobody is chosen (spec §8: choose users first). */
export function ChooseUsersNotice({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <>
      <Alert color="yellow" role="alert">
        {t('accreditation.chooseUsers')}
      </Alert>
      <Group justify="flex-end" mt="md">
        <Button variant="default" onClick={onClose}>
          {t('basics.close')}
        </Button>
      </Group>
    </>
  );
}

/**
 * A choice a modal cannot go on without: its value, and the message under the field from the
 * first submit without it until the value changes.
 */
export function useRequiredChoice<V>(initial: V, missingKey: string, isEmpty: (value: V) => boolean) {
  const { t } = useTranslation();
  const [value, setValue] = useState(initial);
  const [missing, setMissing] = useState(false);
  return {
    value,
    onChange: (next: V) => {
      setValue(next);
      setMissing(false);
    },
    error: missing ? t(missingKey) : undefined,
    /** whether the value is chosen; when not, the message is shown */
    check: () => {
      setMissing(isEmpty(value));
      return !isEmpty(value);
    },
  };
}

export const isNone = (value: string | null) => !value;
export const isNoneOf = (value: string[]) => value.length === 0;
