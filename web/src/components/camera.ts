import { readStorage, writeStorage } from '../api/storage';

/**
 * What the webcam photo and the webcam code scanner share: the camera list, the remembered choice
 * (spec §3 client-side state: camera enabled, and the chosen camera) and the message of a failure.
 */
export const CAMERA_STORAGE = {
  /** the camera chosen for photos (webcam-capture) */
  photoCamera: 'accredo.camera.photo',
  /** the camera chosen for scanning codes (check page) */
  scanCamera: 'accredo.camera.scan',
  /** '1' when the check page scans with the camera */
  scanEnabled: 'accredo.camera.scanEnabled',
} as const;

export interface CameraOption {
  value: string;
  label: string;
}

export function readCamera(key: string): string | null {
  return readStorage(key) || null;
}

export function rememberCamera(key: string, deviceId: string | null): void {
  writeStorage(key, deviceId);
}

/** Whether this browser can use a camera at all (getUserMedia needs a secure context: https or localhost). */
export function cameraSupported(): boolean {
  return typeof navigator !== 'undefined' && typeof navigator.mediaDevices?.getUserMedia === 'function';
}

/** The video inputs for a select; labels are empty before permission, so they fall back to 'Camera n'. */
export async function listCameras(fallbackLabel: (n: number) => string): Promise<CameraOption[]> {
  if (typeof navigator.mediaDevices?.enumerateDevices !== 'function') return [];
  const devices = await navigator.mediaDevices.enumerateDevices();
  return devices
    .filter((d) => d.kind === 'videoinput' && d.deviceId)
    .map((d, i) => ({ value: d.deviceId, label: d.label || fallbackLabel(i + 1) }));
}

/** The catalogue key that explains a getUserMedia / camera failure to the user. */
export function cameraErrorKey(error: unknown): string {
  const name = error && typeof error === 'object' && 'name' in error ? String((error as { name: unknown }).name) : '';
  switch (name) {
    case 'NotAllowedError':
    case 'PermissionDeniedError':
    case 'SecurityError':
      return 'webcam.denied';
    case 'NotFoundError':
    case 'DevicesNotFoundError':
    case 'OverconstrainedError':
      return 'webcam.noCamera';
    case 'NotReadableError':
    case 'TrackStartError':
    case 'AbortError':
      return 'webcam.busy';
    default:
      return 'webcam.error';
  }
}

/**
 * Opens a camera: the remembered one if it is still there, otherwise the default camera (a
 * remembered camera that was unplugged must not leave the user with an error).
 */
export async function openCamera(deviceId: string | null, video: MediaTrackConstraints = {}): Promise<MediaStream> {
  if (deviceId) {
    try {
      return await navigator.mediaDevices.getUserMedia({ video: { ...video, deviceId: { exact: deviceId } } });
    } catch (error) {
      const name = (error as { name?: string })?.name;
      if (name !== 'OverconstrainedError' && name !== 'NotFoundError') throw error;
    }
  }
  return navigator.mediaDevices.getUserMedia({ video: Object.keys(video).length ? video : true });
}

export function stopStream(stream: MediaStream | null | undefined): void {
  for (const track of stream?.getTracks() ?? []) track.stop();
}
