import { AspectRatio, Group, Loader, Stack, Text } from '@mantine/core';
import { BrowserMultiFormatReader, type IScannerControls } from '@zxing/browser';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { CameraError, CameraPicker } from '../../../components/camera-controls';
import { CAMERA_STORAGE } from '../../../components/camera';
import { useCamera } from '../../../components/use-camera';

/** Spec §9: the camera scanner waits 100 ms between two attempts to read a frame. */
export const SCAN_DELAY_MS = 100;
/** The same code held in front of the camera is taken once, not again within this time. */
export const SAME_CODE_PAUSE_MS = 3000;

export interface CameraScannerProps {
  /** a code read from the camera (the page checks it like a typed one) */
  onCode: (code: string) => void;
  /** while true, read codes are ignored (a check is under way) */
  paused?: boolean;
}

/**
 * Reads barcodes and QR codes with a webcam (spec §2 /accreditation/check: optional camera
 * scanning; @zxing/browser, 100 ms between attempts). The camera is chosen from a select and
 * remembered in the browser; no camera, a refused permission or a busy camera are explained.
 */
export function CameraScanner({ onCode, paused = false }: CameraScannerProps) {
  const { t } = useTranslation();
  const videoRef = useRef<HTMLVideoElement>(null);
  const handler = useRef({ onCode, paused });
  handler.current = { onCode, paused };
  const last = useRef<{ code: string; at: number } | null>(null);
  const camera = useCamera(CAMERA_STORAGE.scanCamera, async (stream) => {
    const reader = new BrowserMultiFormatReader(undefined, { delayBetweenScanAttempts: SCAN_DELAY_MS });
    const controls: IScannerControls = await reader.decodeFromStream(
      stream,
      videoRef.current ?? undefined,
      (result) => {
        if (!result) return;
        const code = result.getText().trim();
        const now = Date.now();
        if (!code || handler.current.paused) return;
        if (last.current && last.current.code === code && now - last.current.at < SAME_CODE_PAUSE_MS) return;
        last.current = { code, at: now };
        handler.current.onCode(code);
      },
    );
    return () => controls.stop();
  });
  const { status, cameras, activeId } = camera;
  const error = status.kind === 'error' ? status.key : null;

  return (
    <Stack gap="sm">
      <CameraPicker
        cameras={cameras}
        activeId={activeId}
        onChange={camera.choose}
        disabled={status.kind === 'starting'}
      />
      <CameraError error={error} onRetry={camera.retry} />
      <AspectRatio ratio={4 / 3} maw={400} display={error ? 'none' : undefined}>
        <div style={{ position: 'relative', background: 'var(--mantine-color-dark-7)', borderRadius: 4 }}>
          <video
            ref={videoRef}
            aria-label={t('scanner.preview')}
            muted
            playsInline
            style={{ width: '100%', height: '100%', objectFit: 'cover' }}
          />
          {status.kind === 'starting' && (
            <Group justify="center" style={{ position: 'absolute', inset: 0 }} aria-live="polite">
              <Loader size="sm" color="gray" aria-hidden />
              <Text size="sm" c="gray.3">
                {t('scanner.starting')}
              </Text>
            </Group>
          )}
        </div>
      </AspectRatio>
      {status.kind === 'live' && (
        <Text size="sm" c="dimmed">
          {t('scanner.cameraHint')}
        </Text>
      )}
    </Stack>
  );
}
