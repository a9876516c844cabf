import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineMethod } from './define';
import { deskMethods } from './index';
import { lazySchema } from './lazy-schema';

describe('lazySchema', () => {
  it('makes the schema on first use, once, and stands in for it however it is used', () => {
    let made = 0;
    const kind = lazySchema(() => {
      made += 1;
      return z.enum(['dog', 'cat']);
    });
    const pet = lazySchema(() => z.object({ name: z.string().min(1), kind }));
    expect(made).toBe(0);
    // Composed into another schema, parsed, refused with the same issues.
    expect(pet.parse({ name: 'Rex', kind: 'dog' })).toEqual({ name: 'Rex', kind: 'dog' });
    expect(made).toBe(1);
    const refused = pet.safeParse({ name: '', kind: 'bird' });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['name', 'kind']);
    // Its methods, its shape, its class, and a copy of its shape spread into another object.
    expect(pet.extend({ age: z.number() }).parse({ name: 'Tom', kind: 'cat', age: 3 })).toHaveProperty(
      'age',
      3,
    );
    expect(Object.keys(pet.shape)).toEqual(['name', 'kind']);
    expect(pet).toBeInstanceOf(z.ZodObject);
    expect(kind.options).toEqual(['dog', 'cat']);
    expect(
      z.object({ ...pet.shape, id: z.string() }).safeParse({ name: 'A', kind: 'cat', id: '1' }).success,
    ).toBe(true);
    expect(kind.optional().parse(undefined)).toBeUndefined();
    expect(made).toBe(1);
  });

  it('leaves a method table unbuilt until a method is read, and then builds that method alone', () => {
    let built = 0;
    const method = defineMethod(() => {
      built += 1;
      return { summary: 'Echoes.', input: z.string(), output: z.string() };
    });
    const table = { 'test.echo': method };
    expect(Object.keys({ ...table })).toEqual(['test.echo']);
    expect(built).toBe(0);
    expect(method.input.parse('hi')).toBe('hi');
    expect(method.summary).toBe('Echoes.');
    expect(built).toBe(1);
    // The desk's own table: every method still declares an input and an output schema.
    for (const [name, spec] of Object.entries(deskMethods)) {
      expect(spec.input, name).toBeInstanceOf(z.ZodType);
      expect(spec.output, name).toBeInstanceOf(z.ZodType);
      expect(spec.summary.length, name).toBeGreaterThan(0);
    }
  });
});
