import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError, api, unwrap } from '../api/client';

async function fetchSession() {
  try {
    return (await unwrap(api.GET('/v1/auth/session'))).data;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      return null;
    }
    throw error;
  }
}

export type Me = NonNullable<Awaited<ReturnType<typeof fetchSession>>>;

/** Who is signed in: the user, the organization and the session; null when no session is open. */
export const sessionQuery = queryOptions({ queryKey: ['auth', 'session'], queryFn: fetchSession, staleTime: 60_000 });

/** The signed-in user; only used below the signed-in layout, which guarantees a session. */
export function useMe(): Me {
  const { data } = useQuery(sessionQuery);
  if (!data) {
    throw new Error('useMe is used outside the signed-in layout');
  }
  return data;
}
