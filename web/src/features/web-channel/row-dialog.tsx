import { ActionIcon, Button, Group, Modal, Stack, Text, Tooltip } from '@mantine/core';
import type { KeyboardEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

// The pieces of the channel's row lists edited in a dialog (login users, external codes).

/** A row's main text with the error the channel's save found on that row. */
export function RowText({ text, error, mono }: { text: string; error?: string; mono?: boolean }) {
  return (
    <Stack gap={0}>
      <Text size="sm" ff={mono ? 'monospace' : undefined}>
        {text}
      </Text>
      {error && (
        <Text size="xs" c="red" role="alert">
          {error}
        </Text>
      )}
    </Stack>
  );
}

/** An icon button of a row, named after the row; a disabled one keeps its tooltip reachable. */
export function RowIcon({
  label,
  name,
  icon,
  onClick,
  color,
  disabled,
  tooltip,
}: {
  label: string;
  name: string;
  icon: ReactNode;
  onClick: () => void;
  color?: string;
  disabled?: boolean;
  /** the tooltip when it says more than the label (why it is disabled) */
  tooltip?: string;
}) {
  return (
    <Tooltip label={tooltip ?? label}>
      {/* A disabled button gets no pointer events; the wrapper keeps the tooltip reachable. */}
      <span>
        <ActionIcon
          variant="subtle"
          color={color}
          aria-label={`${label}: ${name}`}
          disabled={disabled}
          onClick={onClick}
        >
          {icon}
        </ActionIcon>
      </span>
    </Tooltip>
  );
}

/** Enter in a dialog's input applies it. */
export const enterApplies = (apply: () => void) => (event: KeyboardEvent<HTMLElement>) => {
  if (event.key !== 'Enter') return;
  event.preventDefault();
  apply();
};

/**
 * The add/edit dialog of one row, with Cancel and Apply. Not a <form>: the dialog sits inside the
 * channel's form in the React tree; the change applies to the channel when it is saved.
 */
export function RowDialog({
  opened,
  onClose,
  title,
  onApply,
  children,
}: {
  opened: boolean;
  onClose: () => void;
  title: string;
  onApply: () => void;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Modal opened={opened} onClose={onClose} title={title}>
      <div>
        <Stack gap="sm">
          {children}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('basics.cancel')}
            </Button>
            <Button onClick={onApply}>{t('webChannel.apply')}</Button>
          </Group>
        </Stack>
      </div>
    </Modal>
  );
}
