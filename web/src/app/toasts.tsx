import { Notifications } from '@mantine/notifications';

/** The toasts' container: a chunk of its own, loaded with the first toast (see providers.tsx). */
export default function Toasts() {
  return <Notifications position="top-right" />;
}
