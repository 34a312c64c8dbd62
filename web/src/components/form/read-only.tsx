import { createContext, type ReactNode, useContext } from 'react';

const ReadOnlyContext = createContext(false);

/** Whether the form around is for looking only (the user has no update right, spec §6). */
export const useReadOnly = () => useContext(ReadOnlyContext);

export function ReadOnlyProvider({ value, children }: { value: boolean; children: ReactNode }) {
  return <ReadOnlyContext.Provider value={value}>{children}</ReadOnlyContext.Provider>;
}

/**
 * The fields of a form: every input, select, switch and button inside is disabled when the form
 * is read-only. A tabbed form wraps each panel's fields, so its tabs still switch.
 */
export function FormFields({ children }: { children: ReactNode }) {
  const readOnly = useReadOnly();
  if (!readOnly) return children;
  return (
    <fieldset disabled style={{ display: 'contents' }}>
      {children}
    </fieldset>
  );
}
