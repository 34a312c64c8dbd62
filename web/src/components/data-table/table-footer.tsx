import { PAGE_SIZES } from '@accredo/domain';
import { Group, Pagination, Select, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export interface TablePaging {
  page: number;
  pageCount: number;
  pageSize: number;
  setPage: (page: number) => void;
  /** a new page size also goes back to page 1 */
  setPageSize: (size: number) => void;
}

/** Under a table: the selected or total count, and page size and pages where there are pages. */
export function TableFooter({
  selected,
  total,
  totalText,
  paging,
}: {
  selected: number;
  total: number;
  /** the total as shown, when it is not just the number (e.g. "10,000+") */
  totalText?: string;
  paging?: TablePaging;
}) {
  const { t } = useTranslation();
  return (
    <Group justify="space-between" mt="sm" gap="sm">
      <Text size="sm" c="dimmed" aria-live="polite">
        {selected > 0 ? t('basics.selected', { count: selected }) : t('basics.total', { count: totalText ?? total })}
      </Text>
      {paging && (
        <Group gap="sm">
          <Select
            label={t('basics.pageSize')}
            size="xs"
            w={110}
            allowDeselect={false}
            data={PAGE_SIZES.map((size) => ({ value: String(size), label: String(size) }))}
            value={String(paging.pageSize)}
            onChange={(value) => {
              if (!value) return;
              paging.setPageSize(Number(value));
              paging.setPage(1);
            }}
          />
          <Pagination
            size="sm"
            total={paging.pageCount}
            value={Math.min(paging.page, paging.pageCount)}
            onChange={paging.setPage}
            aria-label={t('basics.pagination')}
            getItemProps={(p) => ({ 'aria-label': t('basics.pageNumber', { page: p }) })}
            getControlProps={(control) => ({ 'aria-label': t(`basics.page_${control}`) })}
          />
        </Group>
      )}
    </Group>
  );
}
