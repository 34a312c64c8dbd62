import { vi } from 'vitest';
import { jsonResponse } from './render';

export interface ApiCall {
  method: string;
  path: string;
  body: unknown;
}

/** a route's answer: a value, or a function of the request body (any shape a test sends), maybe async */
type Answer = unknown | ((body: any) => unknown);

/**
 * A fake admin API for component tests: `METHOD path` → the answer's `data`; `{paged: body}` is
 * sent as the whole body (lists with `max`), a Response as it is, and a function gets the request
 * body and returns one of these. Anything else is 404. Records every call.
 */
export function mockAdminApi(routes: Record<string, Answer>) {
  const calls: ApiCall[] = [];
  const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    const method = init?.method ?? 'GET';
    const path = url.replace('/api/admin/v1/', '');
    const body = init?.body ? JSON.parse(init.body as string) : undefined;
    calls.push({ method, path, body });
    const key = `${method} ${path}`;
    if (!(key in routes)) return jsonResponse({ error: { code: 'NOT_FOUND', message: key } }, 404);
    const route = routes[key];
    const answer = await (typeof route === 'function' ? route(body) : route);
    // a clone each time: a route answered twice (a refetch, a retry) must not hand out a read body
    if (answer instanceof Response) return answer.clone();
    if (answer && typeof answer === 'object' && 'paged' in answer) return jsonResponse(answer.paged);
    return jsonResponse({ data: answer });
  });
  vi.stubGlobal('fetch', fetchMock);
  /** the bodies sent to one path, in order */
  const bodies = (path: string) => calls.filter((c) => c.path === path).map((c) => c.body);
  return { fetchMock, calls, bodies };
}

/** The body of the first `METHOD path` call, or undefined when there was none. */
export const bodyOf = (calls: ApiCall[], method: string, path: string) =>
  calls.find((c) => c.method === method && c.path === path)?.body as Record<string, unknown> | undefined;
