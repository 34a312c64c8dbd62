import { ERRORS } from '@accredo/domain';
import { Button, Group, List, Modal, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { BulkTarget } from '../../../api/accreditation-list';
import { type PrintAnswer, type PrintFailure, printApi } from '../../../api/print';
import { i18n } from '../../../app/i18n';
import { notifyError } from '../../../app/notify';
import { bulkErrorKey } from './bulk-modals';

/** Spec §9: the print window prints itself after 500 ms (its images and fonts have loaded by then). */
export const PRINT_DELAY_MS = 500;

function escapeText(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] as string);
}

/** Writes the badges into the print window, with this site as the base of the photos' paths, and prints. */
export function writePrintWindow(win: Window, html: string): void {
  const base = `<base href="${escapeText(window.location.origin)}/">`;
  const document = /<head>/i.test(html) ? html.replace(/<head>/i, `<head>\n${base}`) : `${base}${html}`;
  win.document.open();
  win.document.write(document);
  win.document.close();
  window.setTimeout(() => {
    if (win.closed) return;
    win.focus();
    win.print();
  }, PRINT_DELAY_MS);
}

/** The window opened at once on the click (a popup opened later, after the call, would be blocked). */
function openPrintWindow(): Window | null {
  const win = window.open('', '_blank');
  if (win) {
    const title = escapeText(i18n.t('templateEngine.printWindowTitle'));
    win.document.write(
      `<!DOCTYPE html><title>${title}</title><p style="font-family:sans-serif">${escapeText(i18n.t('templateEngine.printing'))}</p>`,
    );
  }
  return win;
}

const errorKey = (code: string) => (ERRORS as Record<string, { key: string } | undefined>)[code]?.key ?? code;

function PrintErrorsModal({ answer, onClose }: { answer: PrintAnswer | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={answer !== null}
      onClose={onClose}
      title={t('templateEngine.printErrorsTitle')}
      size="lg"
      closeButtonProps={{ 'aria-label': t('basics.close') }}
    >
      {answer && (
        <Stack gap="sm">
          <Text size="sm">{t('templateEngine.printErrorsIntro', { printed: answer.printed })}</Text>
          <List size="sm" spacing={4} aria-label={t('templateEngine.printErrorsTitle')}>
            {answer.error.map((failure: PrintFailure) => (
              <List.Item key={`${failure.user}-${failure.error}`}>
                {t('templateEngine.printErrorLine', { user: failure.user, error: t(errorKey(failure.error)) })}
                {failure.name ? ` (${failure.name})` : ''}
              </List.Item>
            ))}
          </List>
          <Group justify="flex-end">
            <Button onClick={onClose}>{t('basics.close')}</Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

export interface PrintBadges {
  run: (target: BulkTarget) => void;
  isPending: boolean;
  /** the error list modal; render it once */
  modal: ReactNode;
}

/**
 * The list's Print option (spec §2 options: print; §7 user/print): the selection, or with select-all
 * the whole filter, printed as one HTML document in a new window that prints itself after 500 ms;
 * the people left out are listed in a modal (spec §8: print errors appear in a modal). Ctrl/Cmd+P
 * on the list does the same instead of the browser's print, only for holders of the print right.
 */
export function usePrintBadges(target: BulkTarget, enabled: boolean, onPrinted: () => void): PrintBadges {
  const [failures, setFailures] = useState<PrintAnswer | null>(null);
  const mutation = useMutation({ mutationFn: (t: BulkTarget) => printApi.print(t) });

  const run = (selection: BulkTarget) => {
    if (mutation.isPending) return;
    if (!selection.all && selection.userId.length === 0) {
      notifyError('accreditation.chooseUsers');
      return;
    }
    const win = openPrintWindow();
    mutation.mutate(selection, {
      onSuccess: (answer) => {
        if (answer.error.length) setFailures(answer);
        if (answer.data) {
          const target = win && !win.closed ? win : window.open('', '_blank');
          if (target) writePrintWindow(target, answer.data);
          else notifyError('templateEngine.popupBlocked');
        } else win?.close();
        if (answer.printed) onPrinted();
      },
      onError: (error) => {
        win?.close();
        notifyError(bulkErrorKey(error, 'templateEngine.printError'));
      },
    });
  };

  // Ctrl/Cmd+P prints the selection (spec §2 Layout); the latest selection, whatever render set it.
  const latest = useRef({ run, target });
  latest.current = { run, target };
  useEffect(() => {
    if (!enabled) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey || event.key.toLowerCase() !== 'p')
        return;
      event.preventDefault();
      latest.current.run(latest.current.target);
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [enabled]);

  return {
    run,
    isPending: mutation.isPending,
    modal: <PrintErrorsModal answer={failures} onClose={() => setFailures(null)} />,
  };
}
