import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ApiError, onSignedOut } from './api/client';
import { sessionQuery } from './auth/session';
import { createConsoleRouter } from './router';
import './styles.css';

const retryUnlessClientError = (failureCount: number, error: unknown) =>
  failureCount < 2 && !(error instanceof ApiError && error.status >= 400 && error.status < 500);

const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: retryUnlessClientError, refetchOnWindowFocus: true, staleTime: 5_000 },
  },
  queryCache: new QueryCache(),
  mutationCache: new MutationCache(),
});
const router = createConsoleRouter(queryClient);

// An expired or revoked session: back to sign-in, returning here afterwards. Unsent replies are
// drafts kept in the browser, so nothing typed is lost.
onSignedOut(() => {
  const here = router.state.location.href;
  if (router.state.location.pathname === '/sign-in') {
    return;
  }
  queryClient.setQueryData(sessionQuery.queryKey, null);
  void router.navigate({ to: '/sign-in', search: { redirect: here, reason: 'expired' } });
});

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </StrictMode>,
  );
}
