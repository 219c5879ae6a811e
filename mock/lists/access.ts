/**
 * Reads the value of a list field from an item. A dotted field name (`address.city`) walks nested objects.
 * `undefined` and missing properties read as `null`.
 */
type Accessor = (item: unknown) => unknown;

const accessors = new Map<string, Accessor>();

export function fieldAccessor(name: string): Accessor {
  let accessor = accessors.get(name);
  if (accessor) return accessor;
  const path = name.split('.');
  if (path.length === 1) {
    accessor = (item) => {
      if (item === null || typeof item !== 'object') return null;
      const value = (item as Record<string, unknown>)[name];
      return value === undefined ? null : value;
    };
  } else {
    accessor = (item) => {
      let current: unknown = item;
      for (const step of path) {
        if (current === null || typeof current !== 'object') return null;
        current = (current as Record<string, unknown>)[step];
      }
      return current === undefined ? null : current;
    };
  }
  accessors.set(name, accessor);
  return accessor;
}
