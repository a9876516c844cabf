/**
 * A schema made on its first use rather than as its module loads. The desk API declares some 1,100 zod schemas; a
 * command-line call or a window checks a handful, and every schema made costs its start-up (the command line's
 * snapshot deserialises each one on every call). The value stands in for the schema everywhere (parse, compose,
 * `instanceof`, its shape), so a caller cannot tell the difference.
 */
export function lazySchema<T extends object>(build: () => T): T {
  let built: T | undefined;
  const schema = () => {
    built ??= build();
    return built;
  };
  return new Proxy({} as T, {
    get: (_, key) => Reflect.get(schema(), key),
    set: (_, key, value) => Reflect.set(schema(), key, value),
    has: (_, key) => Reflect.has(schema(), key),
    ownKeys: () => Reflect.ownKeys(schema()),
    getOwnPropertyDescriptor: (_, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(schema(), key);
      // A proxy may report a property only as configurable as its (empty) target allows.
      return descriptor && { ...descriptor, configurable: true };
    },
    getPrototypeOf: () => Reflect.getPrototypeOf(schema()),
    defineProperty: (_, key, descriptor) => Reflect.defineProperty(schema(), key, descriptor),
  });
}
