import { useCurrentUser } from '../../api/auth.ts';
import { useFeatureSlots } from '../../library/feature-slots.tsx';

/** Where the new-messages banner (with its View action to /messages) goes on the home page. */
export function MessagesBannerSlot() {
  const { user } = useCurrentUser();
  // Messaging's code (its API schemas, the thread list's updates) loads only for a signed-in visitor,
  // who can have messages (the slot loads it with its first use).
  const { MessagesBanner } = useFeatureSlots();
  if (!user) return null;
  return <MessagesBanner />;
}
