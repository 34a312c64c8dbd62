import { Tabs } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import type { FieldErrors, FieldValues, UseFormReturn } from 'react-hook-form';

/**
 * The open tab of a tabbed form and the tabs whose fields have errors; after a failed save the
 * form shows a tab with errors when the open one has none.
 */
export function useErrorTabs<TValues extends FieldValues, TOut, Tab extends string>(
  form: UseFormReturn<TValues, unknown, TOut>,
  tabsWithErrors: (errors: FieldErrors<TValues>) => Tab[],
  first: Tab,
) {
  const [tab, setTab] = useState<Tab>(first);
  const errorTabs = tabsWithErrors(form.formState.errors);
  const { submitCount } = form.formState;
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once per submit, reading the errors of that submit
  useEffect(() => {
    const withErrors = tabsWithErrors(form.formState.errors);
    if (withErrors.length > 0 && !withErrors.includes(tab)) setTab(withErrors[0]);
  }, [submitCount]);
  return { tab, setTab, errorTabs };
}

/** A tab of a tabbed form, red with a mark (named for screen readers) while its fields have errors. */
export function ErrorTab({
  value,
  label,
  hasErrors,
  errorLabel,
}: {
  value: string;
  label: string;
  hasErrors: boolean;
  errorLabel: string;
}) {
  return (
    <Tabs.Tab
      value={value}
      color={hasErrors ? 'red' : undefined}
      rightSection={
        hasErrors ? (
          <IconAlertCircle size={14} color="var(--mantine-color-red-filled)" aria-label={errorLabel} />
        ) : undefined
      }
    >
      {label}
    </Tabs.Tab>
  );
}
