import '@testing-library/jest-dom/vitest';
import { LANGUAGES, resources } from '@accredo/i18n';
import { notifications } from '@mantine/notifications';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { addCatalogue } from '../app/i18n';
import { preloadToasts } from '../app/providers';
import { preloadDatePickers } from '../components/date-fields';
import { preloadNumberInput } from '../components/lazy-number-input';

// The browser loads one language's catalogue at a time; component tests get all four up front so
// that they render and switch languages synchronously.
for (const language of LANGUAGES) addCatalogue(language, resources[language]);
// The browser loads the toasts' container with the first toast; tests have it at once.
await preloadToasts();
// The same for the date pickers' chunk.
await preloadDatePickers();
await preloadNumberInput();

// The whole app renders slowly in jsdom on a busy CI machine: wait up to 10 s for findBy/waitFor.
configure({ asyncUtilTimeout: 10_000 });

// Vitest runs without globals, so Testing Library cannot register its own cleanup.
// Toasts live in Mantine's global store: emptied too, so no test sees another's leftover toast.
afterEach(() => {
  cleanup();
  notifications.clean();
  notifications.cleanQueue();
  window.localStorage.clear();
});

// jsdom lacks the browser APIs Mantine relies on (see Mantine's Vitest guide).
const { getComputedStyle } = window;
window.getComputedStyle = (elt: Element) => getComputedStyle(elt);
window.HTMLElement.prototype.scrollIntoView = () => {};
Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: vi.fn().mockImplementation((query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: vi.fn(),
    removeListener: vi.fn(),
    addEventListener: vi.fn(),
    removeEventListener: vi.fn(),
    dispatchEvent: vi.fn(),
  })),
});
class ResizeObserver {
  observe() {}
  unobserve() {}
  disconnect() {}
}
window.ResizeObserver = ResizeObserver;

// CodeMirror (the badge editor) measures text with Range rectangles, which jsdom does not lay out.
const emptyRects = () => Object.assign([], { item: () => null }) as unknown as DOMRectList;
Range.prototype.getClientRects = emptyRects;
Range.prototype.getBoundingClientRect = () => new DOMRect(0, 0, 0, 0);
