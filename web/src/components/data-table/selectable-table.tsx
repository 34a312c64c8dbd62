import { Table } from '@mantine/core';
import type { KeyboardEvent, MouseEvent, ReactNode } from 'react';

export type RowId = string | number;

export interface DataTableColumn<T> {
  key: string;
  header: ReactNode;
  render: (row: T) => ReactNode;
  width?: number | string;
}

/** Clicks on these inside a row do their own thing and do not select the row. */
const INTERACTIVE = 'a, button, input, select, textarea, label, [role="button"], [role="checkbox"], [role="switch"]';

export interface SelectableTableProps<T> {
  /** accessible name of the table */
  label: string;
  columns: DataTableColumn<T>[];
  /** the rows shown (one page) */
  rows: T[];
  getRowId: (row: T) => RowId;
  isSelected: (row: T) => boolean;
  /** a click or Space toggles the row at `index` of `rows`; with ctrl/cmd/shift it selects a range */
  onSelect: (index: number, range: boolean) => void;
  /** double-click or Enter */
  onOpen?: (row: T) => void;
  minWidth?: number;
}

/**
 * The rows of a table with the selection behaviour of spec §2 Data tables: click toggles,
 * ctrl/cmd-click selects a range, double-click or Enter opens, Space toggles. The data table
 * (client pages) and the accreditation list (server pages) both draw their rows with it.
 */
export function SelectableTable<T>({
  label,
  columns,
  rows,
  getRowId,
  isSelected,
  onSelect,
  onOpen,
  minWidth = 600,
}: SelectableTableProps<T>) {
  const onRowClick = (event: MouseEvent<HTMLTableRowElement>, index: number) => {
    if ((event.target as HTMLElement).closest(INTERACTIVE)) return;
    onSelect(index, event.ctrlKey || event.metaKey || event.shiftKey);
  };
  const onRowKeyDown = (event: KeyboardEvent<HTMLTableRowElement>, index: number) => {
    if (event.target !== event.currentTarget) return;
    if (event.key === ' ') {
      event.preventDefault();
      onSelect(index, event.ctrlKey || event.metaKey || event.shiftKey);
    } else if (event.key === 'Enter' && onOpen) {
      event.preventDefault();
      onOpen(rows[index]);
    }
  };

  return (
    <Table.ScrollContainer minWidth={minWidth}>
      <Table highlightOnHover aria-label={label}>
        <Table.Thead>
          <Table.Tr>
            {columns.map((column) => (
              <Table.Th key={column.key} style={{ width: column.width }} scope="col">
                {column.header}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row, index) => {
            const selected = isSelected(row);
            return (
              <Table.Tr
                key={getRowId(row)}
                tabIndex={0}
                aria-selected={selected}
                data-selected={selected || undefined}
                bg={selected ? 'var(--mantine-primary-color-light)' : undefined}
                style={{ cursor: 'pointer', userSelect: 'none' }}
                onClick={(event) => onRowClick(event, index)}
                onDoubleClick={(event) => {
                  if ((event.target as HTMLElement).closest(INTERACTIVE)) return;
                  onOpen?.(row);
                }}
                onKeyDown={(event) => onRowKeyDown(event, index)}
              >
                {columns.map((column) => (
                  <Table.Td key={column.key}>{column.render(row)}</Table.Td>
                ))}
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
