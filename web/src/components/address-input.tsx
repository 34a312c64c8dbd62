import {
  type AddressValue,
  GEOCODE_DEBOUNCE_MS,
  GEOCODE_MIN_QUERY,
  type GeocodeSuggestion,
  gpsText,
} from '@accredo/domain';
import { Autocomplete, Fieldset, Input, Loader, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconMapPin } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { createContext, type ReactNode, type Ref, useContext, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Geocoder } from '../api/geocode';

const GeocoderContext = createContext<Geocoder | null>(null);

/**
 * Gives the address inputs inside it their suggestion source: the admin app's geocoder or a public
 * channel's. Without a provider (or with suggestions off on the server) addresses are typed by hand.
 */
export function GeocoderProvider({ geocoder, children }: { geocoder: Geocoder | null; children: ReactNode }) {
  return <GeocoderContext.Provider value={geocoder}>{children}</GeocoderContext.Provider>;
}

export const useGeocoder = () => useContext(GeocoderContext);

const emptyAddress = (): AddressValue => ({ street: '', city: '', zip: '', gps: '' });

/** "street, city, zip" of a stored address (what the search box shows for it). */
export function addressText(value: Partial<AddressValue> | null | undefined): string {
  return [value?.street, value?.city, value?.zip].filter((v) => v?.trim()).join(', ');
}

export interface AddressInputProps {
  label: string;
  description?: string;
  required?: boolean;
  /** the translated error */
  error?: string;
  value: Partial<AddressValue> | null;
  onChange: (value: AddressValue) => void;
  onBlur?: () => void;
  inputRef?: Ref<HTMLInputElement>;
}

/**
 * A user field of type address (spec §3: street, city, zip, gps; §5 Address). With suggestions on
 * (GEOCODING_URL), one search box offers addresses as the user types (debounced 500 ms, spec §9);
 * the address must be picked from them and include street and postal code, otherwise the user is
 * asked to choose an exact address (typed text alone leaves the value without a postal code, which
 * the form's address check refuses). With suggestions off, or while the service fails, street,
 * city and postal code are typed by hand.
 */
export function AddressInput(props: AddressInputProps) {
  const geocoder = useGeocoder();
  const status = useQuery({
    queryKey: ['geocode', 'status', geocoder?.key ?? 'none'],
    queryFn: () => (geocoder as Geocoder).status(),
    enabled: geocoder !== null,
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
  // Until the server says suggestions are on (and whenever they are not), the parts are typed by hand.
  if (!geocoder || !status.data?.enabled) return <ManualAddress {...props} />;
  return <SuggestedAddress {...props} geocoder={geocoder} />;
}

function SuggestedAddress({
  label,
  description,
  required,
  error,
  value,
  onChange,
  onBlur,
  inputRef,
  geocoder,
}: AddressInputProps & { geocoder: Geocoder }) {
  const { t } = useTranslation();
  const [text, setText] = useState(() => addressText(value));
  // The text that stands for the current value (a picked suggestion or the stored address): no search for it.
  const [settled, setSettledState] = useState<string | null>(() => addressText(value) || null);
  // Also as a ref: the Autocomplete reports the picked label through onChange right after the pick.
  const settledRef = useRef(settled);
  const setSettled = (next: string | null) => {
    settledRef.current = next;
    setSettledState(next);
  };
  const [debounced] = useDebouncedValue(text.trim(), GEOCODE_DEBOUNCE_MS);
  const searching = debounced.length >= GEOCODE_MIN_QUERY && debounced !== settled;
  const suggestions = useQuery({
    queryKey: ['geocode', geocoder.key, debounced],
    queryFn: ({ signal }) => geocoder.search(debounced, signal),
    enabled: searching,
    staleTime: 60_000,
    retry: false,
  });

  if (suggestions.isError && searching)
    return (
      <Stack gap={4}>
        <ManualAddress
          label={label}
          description={description}
          required={required}
          error={error}
          value={value}
          onChange={onChange}
          onBlur={onBlur}
          inputRef={inputRef}
        />
        <Text size="xs" c="orange.8" role="status">
          {t('address.unavailable')}
        </Text>
      </Stack>
    );

  const found: GeocodeSuggestion[] = searching ? (suggestions.data ?? []) : [];
  const labels = [...new Set(found.map((s) => s.label))];
  const incomplete = Boolean(value?.street?.trim() || text.trim()) && !(value?.zip?.trim() && value?.street?.trim());
  const typed = text.trim();
  let hintKey: string | null = null;
  if (typed && typed !== settled) {
    if (typed.length < GEOCODE_MIN_QUERY) hintKey = 'address.queryTooShort';
    else if (suggestions.isFetching || typed !== debounced) hintKey = 'address.searching';
    else hintKey = found.length === 0 ? 'address.noResults' : 'address.chooseExact';
  } else if (incomplete) hintKey = 'address.chooseExact';

  const pick = (picked: string) => {
    const suggestion = found.find((s) => s.label === picked);
    if (!suggestion) return;
    setText(suggestion.label);
    setSettled(suggestion.label);
    onChange({ street: suggestion.street, city: suggestion.city, zip: suggestion.zip, gps: gpsText(suggestion.gps) });
  };

  return (
    <Stack gap={4}>
      <Autocomplete
        ref={inputRef}
        label={label}
        description={description || t('address.searchHint')}
        required={required}
        error={error}
        placeholder={t('address.search')}
        leftSection={<IconMapPin size={16} />}
        rightSection={suggestions.isFetching ? <Loader size="xs" /> : undefined}
        data={labels}
        filter={({ options }) => options}
        limit={10}
        value={text}
        autoComplete="off"
        onChange={(next) => {
          setText(next);
          if (next === settledRef.current) return;
          // Typed text is not an address yet: without a postal code the form asks to pick one.
          onChange(next.trim() ? { street: next.trim(), city: '', zip: '', gps: '' } : emptyAddress());
        }}
        onOptionSubmit={pick}
        onBlur={onBlur}
      />
      {hintKey && !error && (
        <Text size="xs" c={hintKey === 'address.chooseExact' ? 'orange.8' : 'dimmed'} aria-live="polite">
          {t(hintKey)}
        </Text>
      )}
      {!incomplete && value?.street && value?.zip && (
        <Text size="xs" c="dimmed">
          {t('address.chosen')}: {addressText(value)}
        </Text>
      )}
    </Stack>
  );
}

/** Street, city and postal code typed by hand (suggestions off). */
function ManualAddress({ label, description, required, error, value, onChange, onBlur, inputRef }: AddressInputProps) {
  const { t } = useTranslation();
  const address = { ...emptyAddress(), ...(value ?? {}) };
  const set = (part: 'street' | 'city' | 'zip', next: string) => onChange({ ...address, [part]: next, gps: '' });
  return (
    <Fieldset legend={required ? `${label} *` : label} variant="unstyled">
      <Stack gap={4}>
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="xs">
          <TextInput
            label={`${label}: ${t('accreditationDetail.street')}`}
            ref={inputRef}
            value={address.street}
            onChange={(e) => set('street', e.currentTarget.value)}
            onBlur={onBlur}
            error={Boolean(error)}
          />
          <TextInput
            label={`${label}: ${t('accreditationDetail.city')}`}
            value={address.city}
            onChange={(e) => set('city', e.currentTarget.value)}
            onBlur={onBlur}
            error={Boolean(error)}
          />
          <TextInput
            label={`${label}: ${t('accreditationDetail.zip')}`}
            value={address.zip}
            onChange={(e) => set('zip', e.currentTarget.value)}
            onBlur={onBlur}
            error={Boolean(error)}
          />
        </SimpleGrid>
        {description && <Input.Description>{description}</Input.Description>}
        {error && <Input.Error>{error}</Input.Error>}
      </Stack>
    </Fieldset>
  );
}
