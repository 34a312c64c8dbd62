export * from './data-table';
export * from './table-footer';
export * from './selectable-table';
