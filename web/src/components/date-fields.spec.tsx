import { screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { applyLanguage } from '../app/i18n';
import { renderUi } from '../testing/render';
import { DateField, DateTimeField, TimeField } from './date-fields';

/** A field with its value shown beside it, as the page's state holds it (what goes to the API). */
function Harness({ kind, initial }: { kind: 'date' | 'datetime' | 'time'; initial: string }) {
  const [value, setValue] = useState(initial);
  const Field = kind === 'date' ? DateField : kind === 'datetime' ? DateTimeField : TimeField;
  return (
    <>
      <Field label="When" value={value} onChange={setValue} />
      <output>{value}</output>
    </>
  );
}

describe('date fields (issue 15: dates in the UI language, not the browser’s)', () => {
  it('shows a day in Czech and in English, and keeps YYYY-MM-DD as the value', async () => {
    await applyLanguage('cs', false);
    const { unmount } = renderUi(<Harness kind="date" initial="2026-07-10" />);
    expect(screen.getByLabelText('When')).toHaveValue('10. 7. 2026');
    unmount();
    await applyLanguage('en', false);
    renderUi(<Harness kind="date" initial="2026-07-10" />);
    expect(screen.getByLabelText('When')).toHaveValue('Jul 10, 2026');
    await applyLanguage('cs', false);
  });

  it('reads a typed Czech day and a typed ISO day into the same value', async () => {
    await applyLanguage('cs', false);
    const { user } = renderUi(<Harness kind="date" initial="" />);
    const input = screen.getByLabelText('When');
    await user.type(input, '3. 8. 2026');
    expect(screen.getByRole('status')).toHaveTextContent('2026-08-03');
    await user.clear(input);
    await user.type(input, '2026-09-04');
    expect(screen.getByRole('status')).toHaveTextContent('2026-09-04');
  });

  it('shows a moment in 24 h in Czech and keeps YYYY-MM-DDTHH:mm as the value', async () => {
    await applyLanguage('cs', false);
    const { user } = renderUi(<Harness kind="datetime" initial="2026-07-10T14:30" />);
    const input = screen.getByLabelText('When');
    expect(input).toHaveValue('10. 7. 2026 14:30');
    await user.clear(input);
    await user.type(input, '11. 7. 2026 9:05');
    expect(screen.getByRole('status')).toHaveTextContent('2026-07-11T09:05');
  });

  it('takes a time of day in 24 h as HH:mm and says when it is not one', async () => {
    await applyLanguage('cs', false);
    const { user } = renderUi(<Harness kind="time" initial="10:00" />);
    const input = screen.getByLabelText('When');
    await user.clear(input);
    await user.type(input, '7:45');
    expect(screen.getByRole('status')).toHaveTextContent('07:45');
    await user.clear(input);
    await user.type(input, '25:00');
    expect(screen.getByText('Zadejte správný čas (HH:mm)')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('07:45');
  });
});
