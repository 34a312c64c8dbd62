import { type NumberInputProps, TextInput } from '@mantine/core';
import { type ComponentType, lazy, Suspense } from 'react';

// A number field loads Mantine's NumberInput (react-number-format, ~9 kB gzip) only when a form shows
// one (issue 15: the public form's first load); a read-only box of the same label stands in meanwhile.
let loaded: ComponentType<NumberInputProps> | null = null;
let loading: Promise<ComponentType<NumberInputProps>> | null = null;

/** Loads NumberInput's chunk (the web tests do it up front, so a number field renders at once). */
export function preloadNumberInput(): Promise<ComponentType<NumberInputProps>> {
  loading ??= import('./number-input').then((module) => {
    loaded = module.NumberInput as ComponentType<NumberInputProps>;
    return loaded;
  });
  return loading;
}

const Lazy = lazy(async () => ({ default: await preloadNumberInput() }));

export function LazyNumberInput(props: NumberInputProps) {
  const Loaded = loaded;
  if (Loaded) return <Loaded {...props} />;
  return (
    <Suspense
      fallback={
        <TextInput
          label={props.label}
          description={props.description}
          required={props.required}
          value={String(props.value ?? '')}
          readOnly
        />
      }
    >
      <Lazy {...props} />
    </Suspense>
  );
}
