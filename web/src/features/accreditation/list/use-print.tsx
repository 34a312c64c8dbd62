import { ERRORS } from '@accredo/domain';
import { Button, Group, List, Modal, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { BulkTarget } from '../../../api/accreditation-list';
import { type PrintAnswer, type PrintFailure, type PrintOptions, printApi } from '../../../api/print';
import { i18n } from '../../../app/i18n';
import { notifyError } from '../../../app/notify';
import { bulkErrorKey } from './bulk-modals';

/**
 * The print frame may run the print trigger and open the print dialog, nothing else: without
 * allow-same-origin its document has an opaque origin, so script in a template or a group's html
 * (admin-written, printed as written) can neither read the admin token nor reach this page.
 */
export const PRINT_FRAME_SANDBOX = 'allow-scripts allow-modals';
/** web/public/print-frame.js: prints the frame's document 500 ms after it loaded (spec §9), a file of this origin. */
export const PRINT_SCRIPT = '/print-frame.js';

function escapeText(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] as string);
}

/** The badges with this site as the base of the photos' paths and the print trigger in the head. */
export function printDocument(html: string): string {
  const origin = escapeText(window.location.origin);
  const head = `<base href="${origin}/">\n<script src="${origin}${PRINT_SCRIPT}"></script>`;
  return /<head(\s[^>]*)?>/i.test(html)
    ? html.replace(/<head(\s[^>]*)?>/i, (tag) => `${tag}\n${head}`)
    : `<!DOCTYPE html><html><head>${head}</head><body>${html}</body></html>`;
}

/**
 * Puts the badges into a hidden, sandboxed frame of this page, which prints itself; a previous
 * print frame goes. The frame is never in this page's origin (see PRINT_FRAME_SANDBOX).
 */
export function showPrintFrame(html: string): HTMLIFrameElement {
  removePrintFrames();
  const frame = document.createElement('iframe');
  frame.setAttribute('sandbox', PRINT_FRAME_SANDBOX);
  frame.setAttribute('data-accredo-print', '');
  frame.setAttribute('aria-hidden', 'true');
  frame.tabIndex = -1;
  frame.title = i18n.t('templateEngine.printWindowTitle');
  frame.style.cssText = 'position:fixed;left:0;top:0;width:0;height:0;border:0;visibility:hidden';
  frame.srcdoc = printDocument(html);
  const onMessage = (event: MessageEvent) => {
    if (event.source !== frame.contentWindow || event.data?.accredoPrint !== 'done') return;
    frame.setAttribute('data-printed', 'true');
    window.removeEventListener('message', onMessage);
  };
  window.addEventListener('message', onMessage);
  document.body.append(frame);
  return frame;
}

function removePrintFrames(): void {
  for (const frame of document.querySelectorAll('iframe[data-accredo-print]')) frame.remove();
}

const errorKey = (code: string) => (ERRORS as Record<string, { key: string } | undefined>)[code]?.key ?? code;

export function PrintErrorsModal({ answer, onClose }: { answer: PrintAnswer | null; onClose: () => void }) {
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
  /** `options.replace`: a reprint that retires the old badges (the print options modal) */
  run: (target: BulkTarget, options?: PrintOptions) => void;
  isPending: boolean;
  /** the error list modal; render it once */
  modal: ReactNode;
}

/**
 * The list's Print option (spec §2 options: print; §7 user/print): the selection, or with select-all
 * the whole filter, printed as one HTML document in a sandboxed frame that prints itself after 500 ms;
 * the people left out are listed in a modal (spec §8: print errors appear in a modal). Ctrl/Cmd+P
 * on the list does the same instead of the browser's print, only for holders of the print right.
 */
export function usePrintBadges(target: BulkTarget, enabled: boolean, onPrinted: () => void): PrintBadges {
  const [failures, setFailures] = useState<PrintAnswer | null>(null);
  const mutation = useMutation({
    mutationFn: ({ target: t, options }: { target: BulkTarget; options: PrintOptions }) => printApi.print(t, options),
  });

  const run = (selection: BulkTarget, options: PrintOptions = {}) => {
    if (mutation.isPending) return;
    if (!selection.all && selection.userId.length === 0) {
      notifyError('accreditation.chooseUsers');
      return;
    }
    mutation.mutate(
      { target: selection, options },
      {
        onSuccess: (answer) => {
          if (answer.error.length) setFailures(answer);
          if (answer.data) showPrintFrame(answer.data);
          if (answer.printed) onPrinted();
        },
        onError: (error) => notifyError(bulkErrorKey(error, 'templateEngine.printError')),
      },
    );
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
  // The last print frame stays (a print dialog may still be open) until the next print or the list goes.
  useEffect(() => removePrintFrames, []);

  return {
    run,
    isPending: mutation.isPending,
    modal: <PrintErrorsModal answer={failures} onClose={() => setFailures(null)} />,
  };
}
