import { lazy, Suspense } from 'react';
import { useCurrentUser } from '../auth/index.ts';

// Messaging's code (its API schemas, the thread list's updates) loads only for a signed-in visitor,
// who can have messages: an anonymous visitor's first load of the home page is that much lighter.
const MessagesBanner = lazy(() =>
  import('../messages/index.ts').then((messages) => ({ default: messages.MessagesBanner })),
);

/** Where the new-messages banner (with its View action to /messages) goes on the home page. */
export function MessagesBannerSlot() {
  const { user } = useCurrentUser();
  if (!user) return null;
  return (
    <Suspense fallback={null}>
      <MessagesBanner />
    </Suspense>
  );
}
