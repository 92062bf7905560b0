import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { currentUserQuery } from '../api/users.ts';
import { FeatureSlotsProvider } from '../library/feature-slots.tsx';
import { featureSlots } from './feature-slots.tsx';
import { clearPopupsOnNavigation } from './popups-on-navigation.ts';
import { loadPageAt, routes } from './routes.tsx';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      retry: (count, err) => count < 2 && !(err instanceof Error && 'status' in err),
      staleTime: 30_000,
    },
  },
});

/** The longest the first render waits for what it shows (prepareFirstRender); a loading state after it. */
const FIRST_RENDER_WAIT_MS = 1500;

/**
 * Before the first render, for a visitor past the 18+ gate: the page's module and first data, and the
 * signed-in user, whose files and request the server's HTML started. The first paint then shows the page
 * and the header as they are, instead of a loading state and a guest's header that change a moment later.
 * Offline (as the browser says) the user's request can only fail, after its retries: it is not waited for.
 */
export async function prepareFirstRender(pathname: string): Promise<void> {
  const user = navigator.onLine ? queryClient.prefetchQuery(currentUserQuery) : undefined;
  await Promise.race([
    Promise.all([loadPageAt(pathname, queryClient), user]),
    new Promise((resolve) => setTimeout(resolve, FIRST_RENDER_WAIT_MS)),
  ]);
}

const router = createBrowserRouter(routes);

clearPopupsOnNavigation(router);

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <FeatureSlotsProvider value={featureSlots}>
        <RouterProvider router={router} />
      </FeatureSlotsProvider>
    </QueryClientProvider>
  );
}
