import { SerialPort } from 'serialport';

/** The part of serialport's SerialPort the station uses (tests may hand in another). */
export interface SerialPortLike {
  readonly isOpen: boolean;
  open(callback: (error: Error | null) => void): void;
  close(callback?: (error?: Error | null) => void): void;
  write(data: Buffer, callback?: (error: Error | null | undefined) => void): boolean;
  drain(callback: (error: Error | null) => void): void;
  on(event: 'data', listener: (chunk: Buffer) => void): this;
  on(event: 'close', listener: (error?: Error & { disconnected?: boolean }) => void): this;
  on(event: 'error', listener: (error: Error) => void): this;
  removeAllListeners(): this;
}

export type OpenSerialPort = (options: { path: string; baudRate: number }) => SerialPortLike;

export const openSerialPort: OpenSerialPort = ({ path, baudRate }) =>
  new SerialPort({ path, baudRate, autoOpen: false }) as unknown as SerialPortLike;

export function openPort(port: SerialPortLike): Promise<void> {
  return new Promise((resolve, reject) => port.open((error) => (error ? reject(error) : resolve())));
}

export function closePort(port: SerialPortLike): Promise<void> {
  return new Promise((resolve) => {
    if (!port.isOpen) return resolve();
    port.close(() => resolve());
  });
}

export function writeAndDrain(port: SerialPortLike, data: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    port.write(data, (error) => {
      if (error) return reject(error);
      port.drain((drainError) => (drainError ? reject(drainError) : resolve()));
    });
  });
}
