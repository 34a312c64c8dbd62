import { useEffect, useRef } from 'react';

/** Ctrl/Cmd+S runs `onSave` (spec §2) instead of the browser's "save page", also inside inputs. */
export function useSaveShortcut(onSave: () => void, enabled = true): void {
  const handler = useRef(onSave);
  handler.current = onSave;
  useEffect(() => {
    if (!enabled) return;
    const listener = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === 's') {
        event.preventDefault();
        handler.current();
      }
    };
    window.addEventListener('keydown', listener);
    return () => window.removeEventListener('keydown', listener);
  }, [enabled]);
}
