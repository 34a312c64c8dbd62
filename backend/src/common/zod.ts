import { Body, Param, type PipeTransform } from '@nestjs/common';
import { ApiBody } from '@nestjs/swagger';
import { z } from 'zod';
import { AppError } from './app-error.js';

/** Turns zod issues into the wire's field errors; messages are the spec's message keys. */
export function toFieldErrors(error: z.ZodError) {
  return error.issues.map((issue) => ({
    path: issue.path.join('.'),
    key: issue.message.includes('.') && !issue.message.includes(' ') ? issue.message : 'basics.invalidValue',
  }));
}

export class ZodPipe<T extends z.ZodType> implements PipeTransform<unknown, z.output<T>> {
  constructor(private readonly schema: T) {}
  transform(value: unknown): z.output<T> {
    const result = this.schema.safeParse(value ?? {});
    if (!result.success) throw AppError.validation(toFieldErrors(result.error));
    return result.data;
  }
}

function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  try {
    return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  } catch {
    return { type: 'object' };
  }
}

/** The request body validated by a shared schema of libs/domain, documented in OpenAPI too. */
export function ValidBody(schema: z.ZodType): ParameterDecorator {
  return (target, key, index) => {
    Body(new ZodPipe(schema))(target, key, index);
    if (key !== undefined) {
      const descriptor = Object.getOwnPropertyDescriptor(target, key);
      if (descriptor) ApiBody({ schema: jsonSchemaOf(schema) })(target, key, descriptor);
    }
  };
}

class IdPipe implements PipeTransform<string, number> {
  transform(value: string): number {
    // A path id that is not a positive integer names no row: answer as for any missing row.
    if (!/^[1-9]\d{0,9}$/.test(value)) throw AppError.notFound();
    return Number(value);
  }
}

/** A numeric id from the path (`:id` by default). */
export const IdParam = (name = 'id') => Param(name, new IdPipe());
