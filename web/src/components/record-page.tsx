import type { QueryKey } from '@tanstack/react-query';
import { Fragment, type ReactNode } from 'react';
import { useParams } from 'react-router';
import { LoadingState } from './loading-state';
import { useDetailQuery } from './use-detail-query';

/**
 * A `…/create` and `…/detail/:id` route of one record: on create the form gets no record; on
 * detail the record is loaded first (a failed load leaves the page, spec §8). The form is keyed by
 * the record, so moving to another record starts a fresh form.
 */
export function RecordPage<T>({
  queryKey,
  get,
  listPath,
  errorKey,
  notFoundPath,
  render,
}: {
  queryKey: (id: number) => QueryKey;
  get: (id: number) => Promise<T>;
  /** where a failed load goes */
  listPath: string;
  errorKey: string;
  /** where a 404 goes (home by default) */
  notFoundPath?: string;
  render: (record: T | undefined) => ReactNode;
}) {
  const params = useParams();
  const isCreate = !params.id;
  const id = Number(params.id);
  const query = useDetailQuery({
    queryKey: queryKey(id),
    queryFn: () => get(id),
    enabled: !isCreate,
    listPath,
    errorKey,
    notFoundPath,
  });
  if (isCreate) return <Fragment key="create">{render(undefined)}</Fragment>;
  if (!query.data) return <LoadingState />;
  return <Fragment key={id}>{render(query.data)}</Fragment>;
}
