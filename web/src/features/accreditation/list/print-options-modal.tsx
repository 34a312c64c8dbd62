import { Button, Checkbox, Group, Modal, Stack, Text } from '@mantine/core';
import { IconFileTypePdf, IconPrinter } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PrintOptions } from '../../../api/print';

/**
 * The list's "print with options" (issue 13): print or generate the PDF of the selection, with
 * "replace the old badge" — each printed person gets a new badge version, so a lost or stolen
 * badge is refused at every gate (docs/access-control.md "Badge versions"). Off, it is the
 * ordinary reprint of the Print and Generate PDF options, which keeps the code.
 */
export function PrintOptionsModal({
  opened,
  count,
  onClose,
  onPrint,
  onPdf,
}: {
  opened: boolean;
  /** how many people the print covers (the selection, or the whole filter) */
  count: number;
  onClose: () => void;
  onPrint: (options: PrintOptions) => void;
  onPdf: (options: PrintOptions) => void;
}) {
  const { t } = useTranslation();
  const [replace, setReplace] = useState(false);
  // every opening starts as an ordinary reprint: retiring badges is chosen each time
  useEffect(() => {
    if (opened) setReplace(false);
  }, [opened]);
  const go = (action: (options: PrintOptions) => void) => {
    action({ replace });
    onClose();
  };
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('templateEngine.printOptionsTitle')}
      closeButtonProps={{ 'aria-label': t('basics.close') }}
    >
      <Stack gap="md">
        <Text size="sm">{t('templateEngine.printOptionsCount', { count })}</Text>
        <Checkbox
          label={t('templateEngine.replaceBadge')}
          description={t('templateEngine.replaceBadgeHint')}
          checked={replace}
          onChange={(event) => setReplace(event.currentTarget.checked)}
          color={replace ? 'red' : undefined}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('basics.cancel')}
          </Button>
          <Button
            variant="light"
            color={replace ? 'red' : undefined}
            leftSection={<IconFileTypePdf size={16} />}
            onClick={() => go(onPdf)}
          >
            {t('templateEngine.generatePdf')}
          </Button>
          <Button
            color={replace ? 'red' : undefined}
            leftSection={<IconPrinter size={16} />}
            onClick={() => go(onPrint)}
          >
            {t('templateEngine.print')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
