export * from './codes.js';
export * from './hid-reader.js';
export * from './hid-report.js';
export * from './printer.js';
export * from './reader.js';
export * from './relay.js';
export * from './serial-reader.js';
