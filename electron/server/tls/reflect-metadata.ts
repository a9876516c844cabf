/**
 * The part of the Reflect metadata API that @peculiar/x509's dependency injection (tsyringe) asks for at load
 * time: define, get and get-own metadata, kept in a WeakMap. Installed only where no such API exists yet, and
 * before the library is first loaded (see `loadX509`), so the desk needs no polyfill package for it.
 */
type MetadataKey = unknown;
type PropertyName = string | symbol | undefined;

const store = new WeakMap<object, Map<PropertyName, Map<MetadataKey, unknown>>>();

function ownTable(target: object, property: PropertyName, create: boolean) {
  let byProperty = store.get(target);
  if (!byProperty) {
    if (!create) return undefined;
    byProperty = new Map();
    store.set(target, byProperty);
  }
  let table = byProperty.get(property);
  if (!table && create) {
    table = new Map();
    byProperty.set(property, table);
  }
  return table;
}

function getOwnMetadata(key: MetadataKey, target: object, property?: PropertyName): unknown {
  return ownTable(target, property, false)?.get(key);
}

function getMetadata(key: MetadataKey, target: object, property?: PropertyName): unknown {
  for (let current: object | null = target; current; current = Object.getPrototypeOf(current)) {
    const table = ownTable(current, property, false);
    if (table?.has(key)) return table.get(key);
  }
  return undefined;
}

function defineMetadata(key: MetadataKey, value: unknown, target: object, property?: PropertyName): void {
  ownTable(target, property, true)?.set(key, value);
}

/** Adds the metadata functions to `Reflect` unless another polyfill already did. */
export function installReflectMetadata(): void {
  const reflect = Reflect as unknown as Record<string, unknown>;
  if (typeof reflect.getMetadata === 'function') return;
  reflect.getMetadata = getMetadata;
  reflect.getOwnMetadata = getOwnMetadata;
  reflect.defineMetadata = defineMetadata;
}
