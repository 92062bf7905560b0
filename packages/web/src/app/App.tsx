import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { popupStack } from '../ui/index.ts';
import { routes } from './routes.tsx';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      retry: (count, err) => count < 2 && !(err instanceof Error && 'status' in err),
      staleTime: 30_000,
    },
  },
});

const router = createBrowserRouter(routes);

// A new page starts with no popup open. Cleared as the route changes, before the new
// page mounts, so a popup the new page opens straight away still counts.
let pathname = router.state.location.pathname;
router.subscribe((state) => {
  if (state.location.pathname === pathname) return;
  pathname = state.location.pathname;
  popupStack.clear();
});

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  );
}

export { queryClient };
