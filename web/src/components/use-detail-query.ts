import { type QueryKey, useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { ApiError } from '../api/client';
import { notifyError } from '../app/notify';

export interface DetailQueryOptions<T> {
  queryKey: QueryKey;
  queryFn: () => Promise<T>;
  enabled?: boolean;
  /** where a failed load goes (spec §8: detail load failures go to the list) */
  listPath: string;
  /** toast of a failed load other than 404 */
  errorKey?: string;
  /** where a 404 goes (spec §7: the page is unknown, go home) */
  notFoundPath?: string;
}

/** Loads one record for a detail page and leaves the page when that fails. */
export function useDetailQuery<T>({
  queryKey,
  queryFn,
  enabled = true,
  listPath,
  errorKey = 'basics.loadError',
  notFoundPath = '/',
}: DetailQueryOptions<T>) {
  const navigate = useNavigate();
  const query = useQuery({ queryKey, queryFn, enabled, staleTime: 0, gcTime: 0 });
  const error = query.error;
  useEffect(() => {
    if (!error) return;
    if (error instanceof ApiError && error.status === 401) return;
    if (error instanceof ApiError && error.status === 404) {
      notifyError('basics.unknownPage');
      navigate(notFoundPath, { replace: true });
    } else {
      notifyError(errorKey);
      navigate(listPath, { replace: true });
    }
  }, [error, errorKey, listPath, navigate, notFoundPath]);
  return query;
}
