import { DEFAULT_PAGE_SIZE } from '@accredo/domain';
import { Alert, Center, Loader, Text } from '@mantine/core';
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type DataTableColumn, type RowId, SelectableTable } from './selectable-table';
import { TableFooter } from './table-footer';

export interface DataTableProps<T> {
  /** accessible name of the table */
  label: string;
  columns: DataTableColumn<T>[];
  rows: T[] | undefined;
  getRowId: (row: T) => RowId;
  /** double-click or Enter on a row */
  onOpen?: (row: T) => void;
  loading?: boolean;
  /** a message shown in place of the rows (spec §8: list load failures show a message) */
  error?: ReactNode;
  emptyText?: ReactNode;
  /** controlled selection; the table keeps its own when omitted */
  selection?: ReadonlySet<RowId>;
  onSelectionChange?: (selection: Set<RowId>) => void;
  initialPageSize?: number;
}

/** Pagination appears only from this many rows (spec §9). */
export const PAGINATION_THRESHOLD = 10;

/**
 * The shared table (spec §2 Data tables, §9): click toggles a row, ctrl/cmd-click selects the range
 * from the last clicked row, double-click (or Enter) opens a row, client pagination with page sizes
 * 10–50, and loading, error and empty states.
 */
export function DataTable<T>({
  label,
  columns,
  rows,
  getRowId,
  onOpen,
  loading = false,
  error,
  emptyText,
  selection: controlledSelection,
  onSelectionChange,
  initialPageSize = DEFAULT_PAGE_SIZE,
}: DataTableProps<T>) {
  const { t } = useTranslation();
  const [ownSelection, setOwnSelection] = useState<Set<RowId>>(() => new Set());
  const selection = controlledSelection ?? ownSelection;
  const [anchor, setAnchor] = useState<number | null>(null);
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(initialPageSize);

  const all = rows ?? [];
  const pageCount = Math.max(1, Math.ceil(all.length / pageSize));
  useEffect(() => {
    if (page > pageCount) setPage(pageCount);
  }, [page, pageCount]);
  const offset = (Math.min(page, pageCount) - 1) * pageSize;
  const visible = useMemo(() => all.slice(offset, offset + pageSize), [all, offset, pageSize]);

  const changeSelection = (next: Set<RowId>) => {
    if (!controlledSelection) setOwnSelection(next);
    onSelectionChange?.(next);
  };

  const select = (index: number, range: boolean) => {
    const next = new Set(selection);
    if (range && anchor !== null) {
      const [from, to] = anchor < index ? [anchor, index] : [index, anchor];
      for (let i = from; i <= to; i += 1) next.add(getRowId(all[i]));
    } else {
      const id = getRowId(all[index]);
      if (next.has(id)) next.delete(id);
      else next.add(id);
    }
    setAnchor(index);
    changeSelection(next);
  };

  let body: ReactNode;
  if (loading) {
    body = (
      <Center py="xl" role="status" aria-live="polite">
        <Loader size="sm" mr="sm" />
        <Text size="sm">{t('basics.loading')}</Text>
      </Center>
    );
  } else if (error) {
    body = (
      <Alert color="red" role="alert" my="md">
        {error === true ? t('basics.loadError') : error}
      </Alert>
    );
  } else if (all.length === 0) {
    body = (
      <Text c="dimmed" ta="center" py="xl">
        {emptyText ?? t('basics.noData')}
      </Text>
    );
  }

  return (
    <div>
      <SelectableTable
        label={label}
        columns={columns}
        rows={body ? [] : visible}
        getRowId={getRowId}
        isSelected={(row) => selection.has(getRowId(row))}
        onSelect={(i, range) => select(offset + i, range)}
        onOpen={onOpen}
      />
      {body}
      {!body && (
        <TableFooter
          selected={selection.size}
          total={all.length}
          paging={
            all.length >= PAGINATION_THRESHOLD
              ? {
                  page,
                  pageCount,
                  pageSize,
                  setPage,
                  setPageSize,
                }
              : undefined
          }
        />
      )}
    </div>
  );
}
