import { MessagesBanner } from '../messages/index.ts';

/** Where the new-messages banner (with its View action to /messages) goes on the home page. */
export function MessagesBannerSlot() {
  return <MessagesBanner />;
}
