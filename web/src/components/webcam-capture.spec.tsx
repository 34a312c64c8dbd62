import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderUi, t } from '../testing/render';
import { CAMERA_STORAGE } from './camera';
import { frameToPng, WebcamCapture } from './webcam-capture';

/** A fake camera stream: its track reports the device it came from and records stop(). */
function fakeStream(deviceId: string) {
  const track = { stop: vi.fn(), getSettings: () => ({ deviceId }) };
  return { track, stream: { getTracks: () => [track], getVideoTracks: () => [track] } as unknown as MediaStream };
}

const devices = [
  { kind: 'videoinput', deviceId: 'front', label: 'Front camera' },
  { kind: 'videoinput', deviceId: 'desk', label: 'Desk camera' },
  { kind: 'audioinput', deviceId: 'mic', label: 'Microphone' },
];

function mockMedia(getUserMedia: (c: MediaStreamConstraints) => Promise<MediaStream>) {
  const media = { getUserMedia: vi.fn(getUserMedia), enumerateDevices: vi.fn(async () => devices) };
  Object.defineProperty(navigator, 'mediaDevices', { value: media, configurable: true });
  return media;
}

/** The browser draws the frame and makes the PNG; jsdom has no canvas, so both are stand-ins. */
let pngSize = 1000;
beforeEach(() => {
  pngSize = 1000;
  vi.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(() => Promise.resolve());
  Object.defineProperty(HTMLVideoElement.prototype, 'videoWidth', { configurable: true, get: () => 640 });
  Object.defineProperty(HTMLVideoElement.prototype, 'videoHeight', { configurable: true, get: () => 480 });
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation(
    () => ({ drawImage: vi.fn() }) as unknown as CanvasRenderingContext2D,
  );
  vi.spyOn(HTMLCanvasElement.prototype, 'toDataURL').mockImplementation(function (this: HTMLCanvasElement) {
    // The size shrinks with the canvas, as a real PNG's does.
    const bytes = Math.round((pngSize * this.width) / 640);
    return `data:image/png;base64,${'A'.repeat(Math.ceil(bytes / 3) * 4)}`;
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  Reflect.deleteProperty(navigator, 'mediaDevices');
});

const video = () => screen.getByLabelText(t('webcam.preview')) as HTMLVideoElement;

describe('webcam photo', () => {
  it('shows the camera, takes a PNG snapshot, and gives it to the caller when accepted', async () => {
    const front = fakeStream('front');
    mockMedia(async () => front.stream);
    const onCapture = vi.fn();
    const { user } = renderUi(<WebcamCapture opened onClose={() => {}} onCapture={onCapture} />);

    await waitFor(() => expect(video().srcObject).toBe(front.stream));
    const take = screen.getByRole('button', { name: t('webcam.take') });
    expect(take).toBeDisabled();
    video().dispatchEvent(new Event('loadedmetadata'));
    await waitFor(() => expect(take).toBeEnabled());

    await user.click(take);
    expect(screen.getByRole('img', { name: t('webcam.snapshot') })).toHaveAttribute(
      'src',
      expect.stringMatching(/^data:image\/png;base64,/),
    );
    await user.click(screen.getByRole('button', { name: t('webcam.use') }));
    expect(onCapture).toHaveBeenCalledWith(expect.stringMatching(/^data:image\/png;base64,A+$/));
  });

  it('lists the cameras, remembers the one chosen, and opens it next time', async () => {
    const streams = { front: fakeStream('front'), desk: fakeStream('desk') };
    const media = mockMedia(async (c) => {
      const wanted = ((c.video as MediaTrackConstraints).deviceId as { exact?: string } | undefined)?.exact;
      return (wanted === 'desk' ? streams.desk : streams.front).stream;
    });
    const first = renderUi(<WebcamCapture opened onClose={() => {}} onCapture={() => {}} />);
    const select = await screen.findByRole('combobox', { name: t('webcam.camera') });
    await waitFor(() => expect(select).toHaveValue('Front camera'));
    await first.user.click(select);
    await first.user.click(await screen.findByRole('option', { name: 'Desk camera' }));
    await waitFor(() => expect(video().srcObject).toBe(streams.desk.stream));
    expect(streams.front.track.stop).toHaveBeenCalled();
    expect(window.localStorage.getItem(CAMERA_STORAGE.photoCamera)).toBe('desk');
    first.unmount();
    expect(streams.desk.track.stop).toHaveBeenCalled();

    media.getUserMedia.mockClear();
    renderUi(<WebcamCapture opened onClose={() => {}} onCapture={() => {}} />);
    await waitFor(() => expect(media.getUserMedia).toHaveBeenCalled());
    expect(media.getUserMedia.mock.calls[0][0]).toMatchObject({ video: { deviceId: { exact: 'desk' } } });
  });

  it('falls back to the default camera when the remembered one is gone', async () => {
    window.localStorage.setItem(CAMERA_STORAGE.photoCamera, 'unplugged');
    const front = fakeStream('front');
    const media = mockMedia(async (c) => {
      const wanted = ((c.video as MediaTrackConstraints).deviceId as { exact?: string } | undefined)?.exact;
      if (wanted === 'unplugged') throw new DOMException('gone', 'OverconstrainedError');
      return front.stream;
    });
    renderUi(<WebcamCapture opened onClose={() => {}} onCapture={() => {}} />);
    await waitFor(() => expect(video().srcObject).toBe(front.stream));
    expect(media.getUserMedia).toHaveBeenCalledTimes(2);
  });

  it.each([
    ['NotAllowedError', 'webcam.denied'],
    ['NotFoundError', 'webcam.noCamera'],
    ['NotReadableError', 'webcam.busy'],
  ])('explains a %s and offers to try again', async (name, key) => {
    const front = fakeStream('front');
    let fail = true;
    mockMedia(async () => {
      if (fail) throw new DOMException('no', name);
      return front.stream;
    });
    const { user } = renderUi(<WebcamCapture opened onClose={() => {}} onCapture={() => {}} />);
    expect(await screen.findByRole('alert')).toHaveTextContent(t(key));
    expect(screen.getByRole('button', { name: t('webcam.take') })).toBeDisabled();
    fail = false;
    await user.click(screen.getByRole('button', { name: t('webcam.retry') }));
    await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument());
  });

  it('says so when the browser has no camera access at all', async () => {
    renderUi(<WebcamCapture opened onClose={() => {}} onCapture={() => {}} />);
    expect(await screen.findByRole('alert')).toHaveTextContent(t('webcam.unsupported'));
    expect(screen.queryByRole('button', { name: t('webcam.retry') })).not.toBeInTheDocument();
  });

  it('makes the snapshot smaller until the PNG fits in 2 MB', () => {
    pngSize = 4 * 1024 * 1024;
    const element = document.createElement('video');
    const url = frameToPng(element, 2 * 1024 * 1024);
    expect(url).not.toBeNull();
    const widths = (HTMLCanvasElement.prototype.toDataURL as unknown as { mock: { contexts: HTMLCanvasElement[] } })
      .mock.contexts;
    expect(widths.length).toBeGreaterThan(1);
    pngSize = 1000;
    expect(frameToPng(element, 10)).toBeNull();
  });
});
