import { Button, type ButtonProps } from '@mantine/core';
import type { ComponentPropsWithoutRef } from 'react';
import { useTranslation } from 'react-i18next';

type WorkingButtonProps = ButtonProps &
  Omit<ComponentPropsWithoutRef<'button'>, keyof ButtonProps> & { busy?: boolean };

/** A button that reads basics.working and ignores clicks while its action runs (spec §2). */
export function WorkingButton({ busy = false, children, disabled, ...props }: WorkingButtonProps) {
  const { t } = useTranslation();
  return (
    <Button {...props} disabled={disabled || busy} aria-busy={busy || undefined}>
      {busy ? t('basics.working') : children}
    </Button>
  );
}
