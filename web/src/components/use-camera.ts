import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  type CameraOption,
  cameraErrorKey,
  cameraSupported,
  listCameras,
  openCamera,
  readCamera,
  rememberCamera,
  stopStream,
} from './camera';

export type CameraStatus = { kind: 'starting' } | { kind: 'live' } | { kind: 'error'; key: string };

/**
 * A running camera for the webcam photo and the code scanner: opens the remembered camera (or the
 * default one), hands its stream to `start` (which returns how to stop what it started), lists
 * the cameras for the picker, remembers a choice, and explains what went wrong (no camera, refused,
 * busy, unsupported). The stream is released on a camera change, a retry and unmount.
 */
export function useCamera(
  storageKey: string,
  start: (stream: MediaStream) => Promise<(() => void) | undefined> | (() => void) | undefined,
  constraints: MediaTrackConstraints = {},
) {
  const { t } = useTranslation();
  const [cameraId, setCameraId] = useState<string | null>(() => readCamera(storageKey));
  const [activeId, setActiveId] = useState<string | null>(null);
  const [cameras, setCameras] = useState<CameraOption[]>([]);
  const [status, setStatus] = useState<CameraStatus>({ kind: 'starting' });
  const [attempt, setAttempt] = useState(0);
  const starter = useRef(start);
  starter.current = start;

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` restarts the camera on "try again"; constraints are fixed per use
  useEffect(() => {
    if (!cameraSupported()) {
      setStatus({ kind: 'error', key: 'webcam.unsupported' });
      return;
    }
    let cancelled = false;
    let stream: MediaStream | null = null;
    let stop: (() => void) | undefined;
    setStatus({ kind: 'starting' });
    (async () => {
      try {
        const opened = await openCamera(cameraId, constraints);
        if (cancelled) {
          stopStream(opened);
          return;
        }
        stream = opened;
        stop = await starter.current(opened);
        if (cancelled) {
          stop?.();
          return;
        }
        setStatus({ kind: 'live' });
        setActiveId(opened.getVideoTracks?.()[0]?.getSettings?.().deviceId ?? cameraId);
        const list = await listCameras((n) => t('webcam.cameraN', { n })).catch(() => []);
        if (!cancelled) setCameras(list);
      } catch (error) {
        if (!cancelled) setStatus({ kind: 'error', key: cameraErrorKey(error) });
      }
    })();
    return () => {
      cancelled = true;
      stop?.();
      stopStream(stream);
    };
  }, [cameraId, attempt]);

  /** switches to another camera and remembers it; false when it is the one already running */
  const choose = (value: string | null): boolean => {
    if (!value || value === activeId) return false;
    rememberCamera(storageKey, value);
    setCameraId(value);
    return true;
  };

  return {
    status,
    cameras,
    activeId,
    choose,
    retry: () => setAttempt((n) => n + 1),
    /** shows an error the caller found (a frame that could not be taken) */
    fail: (key: string) => setStatus({ kind: 'error', key }),
  };
}
