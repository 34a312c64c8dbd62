import type { AddressValue, GeocodeSuggestion } from '@accredo/domain';
import { screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { Geocoder } from '../api/geocode';
import { renderUi, t } from '../testing/render';
import { AddressInput, GeocoderProvider } from './address-input';

const wenceslas: GeocodeSuggestion = {
  label: 'Václavské náměstí 1, Praha, 110 00',
  street: 'Václavské náměstí 1',
  city: 'Praha',
  zip: '110 00',
  gps: { lat: 50.0843, lng: 14.4246 },
};
const vague: GeocodeSuggestion = { label: 'Praha, Česko', street: '', city: 'Praha', zip: '', gps: null };

function fakeGeocoder(enabled = true, results: GeocodeSuggestion[] = [wenceslas, vague]) {
  return {
    key: 'test',
    status: vi.fn(async () => ({ enabled })),
    search: vi.fn(async (_q: string) => results),
  } satisfies Geocoder;
}

function Harness({ geocoder, onChange }: { geocoder: Geocoder | null; onChange: (v: AddressValue) => void }) {
  const [value, setValue] = useState<AddressValue | null>(null);
  return (
    <GeocoderProvider geocoder={geocoder}>
      <AddressInput
        label="Address"
        value={value}
        onChange={(next) => {
          setValue(next);
          onChange(next);
        }}
      />
    </GeocoderProvider>
  );
}

describe('address suggestions', () => {
  it('searches 500 ms after the last key and fills street, city, zip and position from the picked address', async () => {
    const geocoder = fakeGeocoder();
    const onChange = vi.fn();
    const { user } = renderUi(<Harness geocoder={geocoder} onChange={onChange} />);
    const box = await screen.findByRole('combobox', { name: 'Address' });
    await user.type(box, 'Václavské 1');
    // Typed text alone is no address: without a postal code the form's check refuses it.
    expect(onChange).toHaveBeenLastCalledWith({ street: 'Václavské 1', city: '', zip: '', gps: '' });
    expect(geocoder.search).not.toHaveBeenCalled();
    await user.click(await screen.findByRole('option', { name: wenceslas.label }));
    expect(geocoder.search).toHaveBeenCalledTimes(1);
    expect(geocoder.search.mock.calls[0][0]).toBe('Václavské 1');
    expect(onChange).toHaveBeenLastCalledWith({
      street: 'Václavské náměstí 1',
      city: 'Praha',
      zip: '110 00',
      gps: '50.0843,14.4246',
    });
    expect(box).toHaveValue(wenceslas.label);
    expect(screen.getByText(`${t('address.chosen')}: Václavské náměstí 1, Praha, 110 00`)).toBeInTheDocument();
    expect(screen.queryByText(t('address.chooseExact'))).not.toBeInTheDocument();
  });

  it('asks for an exact address when the pick has no street or postal code, or nothing is picked', async () => {
    const geocoder = fakeGeocoder();
    const onChange = vi.fn();
    const { user } = renderUi(<Harness geocoder={geocoder} onChange={onChange} />);
    const box = await screen.findByRole('combobox', { name: 'Address' });
    await user.type(box, 'Praha');
    await user.click(await screen.findByRole('option', { name: vague.label }));
    expect(onChange).toHaveBeenLastCalledWith({ street: '', city: 'Praha', zip: '', gps: '' });
    expect(screen.getByText(t('address.chooseExact'))).toBeInTheDocument();

    await user.clear(box);
    await user.type(box, 'Nowhere street 5');
    expect(await screen.findByText(t('address.chooseExact'))).toBeInTheDocument();
    await user.clear(box);
    await user.type(box, 'ab');
    expect(screen.getByText(t('address.queryTooShort'))).toBeInTheDocument();
  });

  it('says when nothing was found', async () => {
    const { user } = renderUi(<Harness geocoder={fakeGeocoder(true, [])} onChange={() => {}} />);
    await user.type(await screen.findByRole('combobox', { name: 'Address' }), 'Xyzzy 12');
    expect(await screen.findByText(t('address.noResults'))).toBeInTheDocument();
  });

  it('offers street, city and postal code to type when suggestions are off', async () => {
    const geocoder = fakeGeocoder(false);
    const onChange = vi.fn();
    const { user } = renderUi(<Harness geocoder={geocoder} onChange={onChange} />);
    await user.type(
      await screen.findByRole('textbox', { name: `Address: ${t('accreditationDetail.street')}` }),
      'Dlouhá 1',
    );
    await user.type(screen.getByRole('textbox', { name: `Address: ${t('accreditationDetail.zip')}` }), '11000');
    expect(onChange).toHaveBeenLastCalledWith({ street: 'Dlouhá 1', city: '', zip: '11000', gps: '' });
    expect(geocoder.search).not.toHaveBeenCalled();
  });

  it('is manual without a geocoder, and falls back to manual entry while the service fails', async () => {
    const first = renderUi(<Harness geocoder={null} onChange={() => {}} />);
    expect(
      await screen.findByRole('textbox', { name: `Address: ${t('accreditationDetail.city')}` }),
    ).toBeInTheDocument();
    first.unmount();

    const failing = fakeGeocoder();
    failing.search.mockRejectedValue(new Error('timeout'));
    const onChange = vi.fn();
    const { user } = renderUi(<Harness geocoder={failing} onChange={onChange} />);
    await user.type(await screen.findByRole('combobox', { name: 'Address' }), 'Dlouhá 1');
    expect(await screen.findByText(t('address.unavailable'))).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: `Address: ${t('accreditationDetail.zip')}` }), '11000');
    await waitFor(() =>
      expect(onChange).toHaveBeenLastCalledWith({ street: 'Dlouhá 1', city: '', zip: '11000', gps: '' }),
    );
  });
});
