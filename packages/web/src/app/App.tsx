import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { clearPopupsOnNavigation } from './popups-on-navigation.ts';
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

clearPopupsOnNavigation(router);

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  );
}
