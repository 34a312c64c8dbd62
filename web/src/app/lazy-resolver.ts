import type { FieldValues, Resolver } from 'react-hook-form';
import type { ZodType } from 'zod';

/**
 * A form's zod resolver whose schema (and zod with it) is loaded at the first validation, not with
 * the page (issue 15, a light first load: the login page and the public form show before zod is
 * there). `load` imports or builds the schema; the resolver is made once and kept (a failed load
 * is tried again at the next validation).
 */
export function lazyZodResolver<TValues extends FieldValues, TOutput = TValues>(
  load: () => Promise<ZodType>,
): Resolver<TValues, unknown, TOutput> {
  let ready: Promise<Resolver<TValues, unknown, TOutput>> | null = null;
  return async (values, context, options) => {
    if (!ready) {
      ready = Promise.all([load(), import('@hookform/resolvers/zod')]).then(
        ([schema, { zodResolver }]) => zodResolver(schema as never) as unknown as Resolver<TValues, unknown, TOutput>,
      );
      ready.catch(() => {
        ready = null;
      });
    }
    return (await ready)(values, context, options);
  };
}
