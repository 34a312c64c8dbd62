import { AspectRatio, Group, Loader, Stack, Text } from '@mantine/core';
import { BrowserMultiFormatReader, type IScannerControls } from '@zxing/browser';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CameraError, CameraPicker } from '../../../components/camera-controls';
import {
  CAMERA_STORAGE,
  type CameraOption,
  cameraErrorKey,
  cameraSupported,
  listCameras,
  openCamera,
  readCamera,
  rememberCamera,
  stopStream,
} from '../../../components/camera';

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

type Status = { kind: 'starting' } | { kind: 'live' } | { kind: 'error'; key: string };

/**
 * Reads barcodes and QR codes with a webcam (spec §2 /accreditation/check: optional camera
 * scanning; @zxing/browser, 100 ms between attempts). The camera is chosen from a select and
 * remembered in the browser; no camera, a refused permission or a busy camera are explained.
 */
export function CameraScanner({ onCode, paused = false }: CameraScannerProps) {
  const { t } = useTranslation();
  const videoRef = useRef<HTMLVideoElement>(null);
  const [cameraId, setCameraId] = useState<string | null>(() => readCamera(CAMERA_STORAGE.scanCamera));
  const [activeId, setActiveId] = useState<string | null>(null);
  const [cameras, setCameras] = useState<CameraOption[]>([]);
  const [status, setStatus] = useState<Status>({ kind: 'starting' });
  const [attempt, setAttempt] = useState(0);
  const handler = useRef({ onCode, paused });
  handler.current = { onCode, paused };
  const last = useRef<{ code: string; at: number } | null>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` restarts the camera on "try again"
  useEffect(() => {
    if (!cameraSupported()) {
      setStatus({ kind: 'error', key: 'webcam.unsupported' });
      return;
    }
    let cancelled = false;
    let stream: MediaStream | null = null;
    let controls: IScannerControls | null = null;
    setStatus({ kind: 'starting' });
    (async () => {
      try {
        const opened = await openCamera(cameraId);
        if (cancelled) {
          stopStream(opened);
          return;
        }
        stream = opened;
        const reader = new BrowserMultiFormatReader(undefined, { delayBetweenScanAttempts: SCAN_DELAY_MS });
        controls = await reader.decodeFromStream(stream, videoRef.current ?? undefined, (result) => {
          if (!result) return;
          const code = result.getText().trim();
          const now = Date.now();
          if (!code || handler.current.paused) return;
          if (last.current && last.current.code === code && now - last.current.at < SAME_CODE_PAUSE_MS) return;
          last.current = { code, at: now };
          handler.current.onCode(code);
        });
        if (cancelled) {
          controls.stop();
          return;
        }
        setStatus({ kind: 'live' });
        setActiveId(stream.getVideoTracks?.()[0]?.getSettings?.().deviceId ?? cameraId);
        const list = await listCameras((n) => t('webcam.cameraN', { n })).catch(() => []);
        if (!cancelled) setCameras(list);
      } catch (error) {
        if (!cancelled) setStatus({ kind: 'error', key: cameraErrorKey(error) });
      }
    })();
    return () => {
      cancelled = true;
      controls?.stop();
      stopStream(stream);
    };
  }, [cameraId, attempt]);

  const choose = (value: string | null) => {
    if (!value || value === activeId) return;
    rememberCamera(CAMERA_STORAGE.scanCamera, value);
    setCameraId(value);
  };
  const error = status.kind === 'error' ? status.key : null;

  return (
    <Stack gap="sm">
      <CameraPicker cameras={cameras} activeId={activeId} onChange={choose} disabled={status.kind === 'starting'} />
      <CameraError error={error} onRetry={() => setAttempt((n) => n + 1)} />
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
