import { PatreonOAuthCallback } from './PatreonOAuthPage.tsx';

/** /patreon/oauth/debug: the callback, showing the raw answer instead of moving on. */
export default function PatreonOAuthDebugPage() {
  return <PatreonOAuthCallback debug />;
}
