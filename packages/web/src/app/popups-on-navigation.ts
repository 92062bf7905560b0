import type { createBrowserRouter } from 'react-router';
import { popupStack } from '../ui/index.ts';

type Router = Pick<ReturnType<typeof createBrowserRouter>, 'state' | 'subscribe'>;

/**
 * A new page starts with no popup open. The stack is cleared as soon as the path
 * changes, before the new page mounts, so a popup the new page opens straight away
 * still counts. Query or hash changes on the same page keep popups.
 */
export function clearPopupsOnNavigation(router: Router): () => void {
  let pathname = router.state.location.pathname;
  return router.subscribe((state) => {
    if (state.location.pathname === pathname) return;
    pathname = state.location.pathname;
    popupStack.clear();
  });
}
