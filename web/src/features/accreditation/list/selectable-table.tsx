import { Table } from '@mantine/core';
import type { KeyboardEvent, MouseEvent, ReactNode } from 'react';

export interface Column<T> {
  key: string;
  header: ReactNode;
  render: (row: T) => ReactNode;
  width?: number | string;
}

const INTERACTIVE = 'a, button, input, select, textarea, label, [role="button"], [role="checkbox"]';

export interface SelectableTableProps<T extends { id: number }> {
  label: string;
  columns: Column<T>[];
  /** the rows of the current page */
  rows: T[];
  isSelected: (row: T) => boolean;
  /** a click toggles a row; ctrl/cmd(/shift)-click selects the range from the last clicked row */
  onSelect: (index: number, range: boolean) => void;
  /** double-click or Enter */
  onOpen: (row: T) => void;
}

/**
 * The rows of one server page with the selection behaviour of the shared data table (spec §2 Data
 * tables): click toggles, ctrl/cmd-click selects a range, double-click or Enter opens, Space toggles.
 */
export function SelectableTable<T extends { id: number }>({
  label,
  columns,
  rows,
  isSelected,
  onSelect,
  onOpen,
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
    } else if (event.key === 'Enter') {
      event.preventDefault();
      onOpen(rows[index]);
    }
  };

  return (
    <Table.ScrollContainer minWidth={700}>
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
                key={row.id}
                tabIndex={0}
                aria-selected={selected}
                data-selected={selected || undefined}
                bg={selected ? 'var(--mantine-primary-color-light)' : undefined}
                style={{ cursor: 'pointer', userSelect: 'none' }}
                onClick={(event) => onRowClick(event, index)}
                onDoubleClick={(event) => {
                  if ((event.target as HTMLElement).closest(INTERACTIVE)) return;
                  onOpen(row);
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
