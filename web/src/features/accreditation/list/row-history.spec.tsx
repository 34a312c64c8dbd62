import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { EMPTY_FILTER } from '../../../api/accreditation-list';
import { accreditationRow } from '../../../testing/fixtures';
import { renderUi, shownDay, t } from '../../../testing/render';
import { FilterPanel, today } from './filter-panel';
import { RowHistory } from './row-history';

const row = accreditationRow(1, {
  firstname: 'Ada',
  lastname: 'Lovelace',
  email: 'ada@example.com',
  bc: 'ABC',
  printCount: 1,
  history: {
    mail: [
      {
        date: '2026-11-22T09:30:00.000Z',
        status: 'sent',
        fail: null,
        uncertain: true,
        adminUser: 'Eve',
        mailTemplate: 'Reminder',
        note: null,
      },
      {
        date: '2026-11-22T09:00:00.000Z',
        status: 'error',
        fail: 'mailbox full',
        uncertain: false,
        adminUser: 'Eve',
        mailTemplate: 'Welcome',
        note: null,
      },
    ],
    print: [
      { date: '2026-11-22T10:30:00.000Z', adminUser: 'Bob', badgeVersion: 1, retiredVersion: 0 },
      { date: '2026-11-22T10:00:00.000Z', adminUser: 'Eve', badgeVersion: 0, retiredVersion: null },
    ],
    entrance: [{ date: '2026-11-22T11:00:00.000Z', type: 1, deviceId: 4 }],
  },
});

describe('accreditation list: row history and entrance filter (spec §2)', () => {
  it('shows the latest mails, prints and passages on focus', async () => {
    const { user } = renderUi(<RowHistory row={row} />);
    await user.tab();
    const tip = await screen.findByRole('tooltip');
    expect(within(tip).getByText(t('accreditationHistory.mails'))).toBeInTheDocument();
    expect(within(tip).getByText(/Welcome · .* · mailbox full · Eve/)).toBeInTheDocument();
    // a mail sent again after an interrupted send says the person may have it twice; the others do not
    const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const sent = t('accreditationHistory.mailStatus.sent');
    const uncertain = t('accreditationHistory.mailUncertain');
    expect(
      within(tip).getByText(new RegExp(`Reminder · ${literal(sent)} · ${literal(uncertain)} · Eve$`)),
    ).toBeInTheDocument();
    expect(within(tip).getAllByText(new RegExp(literal(uncertain)))).toHaveLength(1);
    expect(
      within(tip).getByText(
        new RegExp(`${t('accreditationHistory.entry')} · ${t('accreditationHistory.device', { id: 4 })}`),
      ),
    ).toBeInTheDocument();
    expect(
      screen.getByRole('button', { name: t('accreditationHistory.historyOf', { name: 'Ada Lovelace' }) }),
    ).toBeInTheDocument();
    // a print that replaced the badge says which badge it retired, and by whom; an ordinary one does not
    const retired = t('accreditationHistory.badgeRetired', { version: 0, current: 1 });
    expect(within(tip).getByText(new RegExp(`· Bob · ${literal(retired)}$`))).toBeInTheDocument();
    expect(within(tip).getAllByText(new RegExp(literal(retired)))).toHaveLength(1);
  });

  it('says so when a person has no history yet', async () => {
    const { user } = renderUi(<RowHistory row={{ ...row, history: { mail: [], print: [], entrance: [] } }} />);
    await user.tab();
    expect(within(await screen.findByRole('tooltip')).getAllByText(t('accreditationHistory.none'))).toHaveLength(3);
  });

  it('filters "not entered on a day" with today as the default day', async () => {
    const onApply = vi.fn();
    const { user } = renderUi(
      <FilterPanel
        opened
        onClose={() => {}}
        value={EMPTY_FILTER}
        fields={[]}
        groups={[]}
        zones={[]}
        onApply={onApply}
        onShowAll={() => {}}
      />,
    );
    await user.click(screen.getByRole('combobox', { name: t('accreditationHistory.entrance') }));
    await user.click(await screen.findByRole('option', { name: t('accreditationHistory.notEnteredOnDay') }));
    expect(screen.getByLabelText(t('accreditationHistory.entranceDate'))).toHaveValue(shownDay(today()));
    await user.click(screen.getByRole('button', { name: t('accreditation.applyFilter') }));
    expect(onApply).toHaveBeenCalledWith(expect.objectContaining({ entrance: 4, entranceDate: today() }));
  });
});
