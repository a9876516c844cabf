import type { z } from 'zod';

/**
 * One bridge method: a zod schema for its input (always validated in the core before the handler runs)
 * and, where cheap, a zod schema for its output (validated after the handler, so a handler bug shows up
 * as a clear error instead of a confused screen).
 */
export interface DeskMethodSpec<In extends z.ZodType = z.ZodType, Out extends z.ZodType = z.ZodType> {
  input: In;
  output: Out;
  /** One line for the reader of a method table; not shown to users. */
  summary: string;
}

/** Declares a method; keeps the exact schema types so `DeskInput`/`DeskOutput` can infer them. */
export function defineMethod<In extends z.ZodType, Out extends z.ZodType>(
  spec: DeskMethodSpec<In, Out>,
): DeskMethodSpec<In, Out> {
  return spec;
}
