import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderUi, t } from '../../testing/render';
import { DataTable, type DataTableColumn } from '.';

interface Row {
  id: number;
  name: string;
}

const makeRows = (count: number): Row[] =>
  Array.from({ length: count }, (_, i) => ({ id: i + 1, name: `Row ${i + 1}` }));
const columns: DataTableColumn<Row>[] = [{ key: 'name', header: 'Name', render: (r) => r.name }];

const bodyRows = () => screen.getAllByRole('row').slice(1);
const rowByName = (name: string) => screen.getByRole('row', { name });

describe('DataTable', () => {
  it('toggles a row on click and selects a range with ctrl-click', async () => {
    const onSelectionChange = vi.fn();
    const { user } = renderUi(
      <DataTable
        label="Rows"
        columns={columns}
        rows={makeRows(8)}
        getRowId={(r) => r.id}
        onSelectionChange={onSelectionChange}
      />,
    );
    await user.click(rowByName('Row 2'));
    expect(rowByName('Row 2')).toHaveAttribute('aria-selected', 'true');
    await user.click(rowByName('Row 2'));
    expect(rowByName('Row 2')).toHaveAttribute('aria-selected', 'false');

    await user.click(rowByName('Row 2'));
    await user.keyboard('{Control>}');
    await user.click(rowByName('Row 5'));
    await user.keyboard('{/Control}');
    const selected = bodyRows().filter((row) => row.getAttribute('aria-selected') === 'true');
    expect(selected.map((row) => row.textContent)).toEqual(['Row 2', 'Row 3', 'Row 4', 'Row 5']);
    expect(screen.getByText(t('basics.selected', { count: 4 }))).toBeInTheDocument();
    expect([...(onSelectionChange.mock.lastCall?.[0] ?? [])]).toEqual([2, 3, 4, 5]);
  });

  it('selects a range upwards with cmd-click too', async () => {
    const { user } = renderUi(<DataTable label="Rows" columns={columns} rows={makeRows(8)} getRowId={(r) => r.id} />);
    await user.click(rowByName('Row 6'));
    await user.keyboard('{Meta>}');
    await user.click(rowByName('Row 4'));
    await user.keyboard('{/Meta}');
    const selected = bodyRows().filter((row) => row.getAttribute('aria-selected') === 'true');
    expect(selected.map((row) => row.textContent)).toEqual(['Row 4', 'Row 5', 'Row 6']);
  });

  it('opens a row on double-click and on Enter', async () => {
    const onOpen = vi.fn();
    const { user } = renderUi(
      <DataTable label="Rows" columns={columns} rows={makeRows(3)} getRowId={(r) => r.id} onOpen={onOpen} />,
    );
    await user.dblClick(rowByName('Row 3'));
    expect(onOpen).toHaveBeenCalledWith({ id: 3, name: 'Row 3' });
    rowByName('Row 1').focus();
    await user.keyboard('{Enter}');
    expect(onOpen).toHaveBeenLastCalledWith({ id: 1, name: 'Row 1' });
  });

  it('pages the rows client-side, 10 by default', async () => {
    const { user } = renderUi(<DataTable label="Rows" columns={columns} rows={makeRows(25)} getRowId={(r) => r.id} />);
    expect(bodyRows()).toHaveLength(10);
    expect(bodyRows()[0]).toHaveTextContent('Row 1');
    await user.click(screen.getByRole('button', { name: t('basics.page_next') }));
    expect(bodyRows()[0]).toHaveTextContent('Row 11');
    await user.click(screen.getByRole('button', { name: t('basics.pageNumber', { page: 3 }) }));
    expect(bodyRows()).toHaveLength(5);
    expect(bodyRows()[0]).toHaveTextContent('Row 21');
  });

  it('changes the page size', async () => {
    const { user } = renderUi(<DataTable label="Rows" columns={columns} rows={makeRows(25)} getRowId={(r) => r.id} />);
    await user.click(screen.getByRole('combobox', { name: t('basics.pageSize') }));
    const listbox = await screen.findByRole('listbox');
    expect(
      within(listbox)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['10', '20', '30', '40', '50']);
    await user.click(within(listbox).getByRole('option', { name: '20' }));
    expect(bodyRows()).toHaveLength(20);
  });

  it('shows pagination only from 10 rows', () => {
    const { unmount } = renderUi(
      <DataTable label="Rows" columns={columns} rows={makeRows(9)} getRowId={(r) => r.id} />,
    );
    expect(screen.queryByRole('combobox', { name: t('basics.pageSize') })).not.toBeInTheDocument();
    unmount();
    renderUi(<DataTable label="Rows" columns={columns} rows={makeRows(10)} getRowId={(r) => r.id} />);
    expect(screen.getByRole('combobox', { name: t('basics.pageSize') })).toBeInTheDocument();
  });

  it('shows the empty, loading and error states', () => {
    const { unmount } = renderUi(<DataTable label="Rows" columns={columns} rows={[]} getRowId={(r) => r.id} />);
    expect(screen.getByText(t('basics.noData'))).toBeInTheDocument();
    unmount();
    const loading = renderUi(
      <DataTable label="Rows" columns={columns} rows={undefined} loading getRowId={(r) => r.id} />,
    );
    expect(screen.getByRole('status')).toHaveTextContent(t('basics.loading'));
    loading.unmount();
    renderUi(<DataTable label="Rows" columns={columns} rows={undefined} error="Broken" getRowId={(r) => r.id} />);
    expect(screen.getByRole('alert')).toHaveTextContent('Broken');
  });

  it('does not toggle the row when a link inside it is clicked', async () => {
    const linkColumns: DataTableColumn<Row>[] = [
      ...columns,
      { key: 'edit', header: 'Edit', render: (r) => <button type="button">Edit {r.id}</button> },
    ];
    const { user } = renderUi(
      <DataTable label="Rows" columns={linkColumns} rows={makeRows(2)} getRowId={(r) => r.id} />,
    );
    await user.click(screen.getByRole('button', { name: 'Edit 1' }));
    expect(bodyRows()[0]).toHaveAttribute('aria-selected', 'false');
  });
});
