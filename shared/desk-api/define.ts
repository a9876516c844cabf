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

/**
 * Declares a method; keeps the exact schema types so `DeskInput`/`DeskOutput` can infer them. The spec is made when
 * the method is first called or read, not as the table loads (see lazy-schema.ts).
 */
export function defineMethod<In extends z.ZodType, Out extends z.ZodType>(
  build: () => DeskMethodSpec<In, Out>,
): DeskMethodSpec<In, Out> {
  let made: DeskMethodSpec<In, Out> | undefined;
  const spec = () => {
    made ??= build();
    return made;
  };
  return {
    get input() {
      return spec().input;
    },
    get output() {
      return spec().output;
    },
    get summary() {
      return spec().summary;
    },
  };
}
