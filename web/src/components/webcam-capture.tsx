import { PHOTO_MAX_BYTES } from '@accredo/domain';
import { AspectRatio, Button, Group, Image, Loader, Modal, Stack, Text } from '@mantine/core';
import { IconCamera } from '@tabler/icons-react';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { dataUrlBytes } from '../features/gallery/gallery-constants';
import { CameraError, CameraPicker } from './camera-controls';
import { CAMERA_STORAGE } from './camera';
import { useCamera } from './use-camera';

export interface WebcamCaptureProps {
  opened: boolean;
  onClose: () => void;
  /**
   * The photo the user accepted: a PNG data URL of at most 2 MB (spec §9: the webcam photo is PNG,
   * photo uploads at most 2097152 bytes). The caller closes the dialog (set `opened` false).
   */
  onCapture: (dataUrl: string) => void;
  /** where the chosen camera is remembered (localStorage key); photos share one by default */
  storageKey?: string;
  /** the dialog's title; `webcam.title` by default */
  title?: string;
}

/**
 * A frame of the video as a PNG data URL of at most `maxBytes`: the full frame first, then smaller
 * by a quarter each time (a PNG's size depends on the picture, so it is measured, not guessed).
 * Null when the canvas cannot draw or even a small frame is too large.
 */
export function frameToPng(video: HTMLVideoElement, maxBytes = PHOTO_MAX_BYTES): string | null {
  let width = video.videoWidth;
  let height = video.videoHeight;
  if (!width || !height) return null;
  const canvas = document.createElement('canvas');
  for (let attempt = 0; attempt < 8 && width >= 16 && height >= 16; attempt++) {
    canvas.width = width;
    canvas.height = height;
    const context = canvas.getContext('2d');
    if (!context) return null;
    context.drawImage(video, 0, 0, width, height);
    const url = canvas.toDataURL('image/png');
    if (!url.startsWith('data:image/png')) return null;
    if (dataUrlBytes(url) <= maxBytes) return url;
    width = Math.round(width * 0.75);
    height = Math.round(height * 0.75);
  }
  return null;
}

/** Spec §4: a photo, so the camera is asked for a good picture. */
const PHOTO_CONSTRAINTS: MediaTrackConstraints = { width: { ideal: 1280 }, height: { ideal: 720 } };

/**
 * Takes a photo with a webcam (spec §4 Logo or photo: the third source next to an upload and the
 * gallery): a live picture, a camera select (the choice is remembered in the browser), a snapshot
 * to accept or retake. Explains when there is no camera, the permission was refused, the camera
 * is busy or the browser cannot use cameras here. The camera is released when the dialog closes.
 */
export function WebcamCapture({ opened, onClose, onCapture, storageKey, title }: WebcamCaptureProps) {
  const { t } = useTranslation();
  return (
    <Modal opened={opened} onClose={onClose} title={title ?? t('webcam.title')} size="lg" centered>
      {opened && (
        <WebcamBody storageKey={storageKey ?? CAMERA_STORAGE.photoCamera} onCapture={onCapture} onClose={onClose} />
      )}
    </Modal>
  );
}

function WebcamBody({
  storageKey,
  onCapture,
  onClose,
}: {
  storageKey: string;
  onCapture: (dataUrl: string) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const videoRef = useRef<HTMLVideoElement>(null);
  const [ready, setReady] = useState(false);
  const [shot, setShot] = useState<string | null>(null);
  const camera = useCamera(
    storageKey,
    (stream) => {
      setReady(false);
      const video = videoRef.current;
      if (!video) return undefined;
      video.srcObject = stream;
      const playing = video.play?.();
      if (playing && typeof playing.catch === 'function') playing.catch(() => {});
      return () => {
        video.srcObject = null;
      };
    },
    PHOTO_CONSTRAINTS,
  );
  const { status, cameras, activeId } = camera;

  const markReady = () => {
    const video = videoRef.current;
    if (video && video.videoWidth > 0 && video.videoHeight > 0) setReady(true);
  };

  const capture = () => {
    const video = videoRef.current;
    if (!video) return;
    const url = frameToPng(video);
    if (!url) {
      camera.fail('webcam.captureError');
      return;
    }
    setShot(url);
  };

  const choose = (value: string | null) => {
    if (camera.choose(value)) setShot(null);
  };

  const error = status.kind === 'error' ? status.key : null;

  return (
    <Stack gap="sm">
      <CameraPicker cameras={cameras} activeId={activeId} onChange={choose} disabled={status.kind === 'starting'} />
      <CameraError error={error} onRetry={camera.retry} />
      <AspectRatio ratio={4 / 3} display={error ? 'none' : undefined}>
        <div style={{ position: 'relative', background: 'var(--mantine-color-dark-7)', borderRadius: 4 }}>
          <video
            ref={videoRef}
            aria-label={t('webcam.preview')}
            autoPlay
            muted
            playsInline
            onLoadedMetadata={markReady}
            onPlaying={markReady}
            style={{
              width: '100%',
              height: '100%',
              objectFit: 'contain',
              display: shot ? 'none' : 'block',
            }}
          />
          {shot && <Image src={shot} alt={t('webcam.snapshot')} h="100%" fit="contain" />}
          {!shot && (status.kind === 'starting' || (status.kind === 'live' && !ready)) && (
            <Group justify="center" style={{ position: 'absolute', inset: 0 }} aria-live="polite">
              <Loader size="sm" color="gray" aria-hidden />
              <Text size="sm" c="gray.3">
                {t('webcam.starting')}
              </Text>
            </Group>
          )}
        </div>
      </AspectRatio>
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          {t('webcam.cancel')}
        </Button>
        {shot ? (
          <>
            <Button variant="default" onClick={() => setShot(null)}>
              {t('webcam.retake')}
            </Button>
            <Button onClick={() => onCapture(shot)}>{t('webcam.use')}</Button>
          </>
        ) : (
          <Button leftSection={<IconCamera size={16} />} onClick={capture} disabled={!ready || Boolean(error)}>
            {t('webcam.take')}
          </Button>
        )}
      </Group>
    </Stack>
  );
}
