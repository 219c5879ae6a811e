/**
 * The documented core of a schema of the contract: the part of it the API reference states, as a JSON Schema of its
 * own. The conformance runner validates a response against it as a MUST, and against the whole schema as a SHOULD.
 *
 * Derived from the schema's own provenance marks (spec/provenance.ts), never from a second copy:
 * - A node marked `x-provenance: inferred` is not in the core: as a property it is dropped (and no longer required),
 *   as an `anyOf`/`oneOf` branch it accepts anything (so the alternative no longer constrains), as an `allOf` member or
 *   an item schema it is dropped. A node without a mark belongs to the nearest marked node above it.
 * - A keyword marked `x-<keyword>-provenance: inferred` beside it (`minimum`, `pattern`, `minLength`...) is dropped;
 *   every other validation keyword of a documented node stays (its type, a documented `enum`).
 * - `required` keeps the documented properties it names: a field listed in a documented table is required.
 * - Objects stay open (`additionalProperties` is left out), as the contract's response objects are.
 * - Annotations (`description`, `examples`...) and extension keywords are left out; `$ref` is resolved inline, so the
 *   core is a standalone schema.
 *
 * Every step only removes constraints, so whatever the whole schema accepts, its core accepts: a response can fail
 * the SHOULD part alone, never the MUST part alone.
 */
import type { RefResolver } from './unknown-fields.js';

type Node = Record<string, unknown>;

/** A JSON Schema of the documented core (`true`: the reference constrains nothing there). */
export type CoreSchema = Node | boolean;

/** Deepest nesting followed (the contract's schemas are far shallower; deeper parts are left unconstrained). */
const MAX_DEPTH = 64;

/** Keywords that annotate and never validate. */
const ANNOTATIONS = new Set([
  'title',
  'description',
  'default',
  'examples',
  'example',
  'deprecated',
  'readOnly',
  'writeOnly',
  '$comment',
  '$id',
  '$schema',
  'externalDocs',
  'xml',
  'discriminator',
]);

/**
 * Keywords whose sub-schemas cannot be weakened branch by branch (a weaker `not` is a stronger constraint): left out
 * of the core, which stays weaker than the whole. The contract's response schemas use none of them.
 */
const LEFT_OUT = new Set([
  'not',
  'if',
  'then',
  'else',
  'dependentSchemas',
  'dependentRequired',
  'propertyNames',
  'contains',
  'unevaluatedProperties',
]);

function isObject(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isInferred(node: unknown): boolean {
  return isObject(node) && node['x-provenance'] === 'inferred';
}

function isTrue(schema: CoreSchema): boolean {
  return schema === true || (isObject(schema) && Object.keys(schema).length === 0);
}

/** The documented core of a schema node, with `$ref` resolved by `resolve` (a node of the same document). */
export function documentedCore(schema: unknown, resolve: RefResolver): CoreSchema {
  return new CoreBuilder(resolve).core(schema, 0);
}

class CoreBuilder {
  private readonly memo = new Map<Node, CoreSchema>();

  constructor(private readonly resolve: RefResolver) {}

  core(schema: unknown, depth: number): CoreSchema {
    if (typeof schema === 'boolean') return schema;
    if (!isObject(schema) || depth > MAX_DEPTH || isInferred(schema)) return true;
    const known = this.memo.get(schema);
    if (known !== undefined) return known;
    const own = this.keywords(schema, depth);
    const ref = schema.$ref;
    const result =
      typeof ref === 'string'
        ? this.withTarget(this.core(this.resolve(ref), depth + 1), own)
        : Object.keys(own).length === 0
          ? true
          : own;
    this.memo.set(schema, result);
    return result;
  }

  /** A `$ref`'s core with the node's own documented keywords beside it (OpenAPI 3.1 allows siblings of `$ref`). */
  private withTarget(target: CoreSchema, own: Node): CoreSchema {
    if (Object.keys(own).length === 0) return target;
    if (isTrue(target)) return own;
    return { allOf: [target, own] };
  }

  private keywords(schema: Node, depth: number): Node {
    const out: Node = {};
    for (const [key, value] of Object.entries(schema)) {
      if (key === '$ref' || key.startsWith('x-') || ANNOTATIONS.has(key) || LEFT_OUT.has(key)) continue;
      if (schema[`x-${key}-provenance`] === 'inferred') continue;
      switch (key) {
        case 'properties':
          this.properties(schema, out, depth);
          break;
        case 'required':
          // Set by `properties` (only the documented properties stay required).
          break;
        case 'additionalProperties':
          // Objects stay open; a schema for the other members (a record's values) keeps its core.
          if (isObject(value)) this.keep(out, key, this.core(value, depth + 1));
          break;
        case 'patternProperties':
          if (isObject(value))
            out[key] = Object.fromEntries(Object.entries(value).map(([p, s]) => [p, this.core(s, depth + 1)]));
          break;
        case 'items':
        case 'additionalItems':
        case 'unevaluatedItems':
          this.keep(out, key, this.core(value, depth + 1));
          break;
        case 'prefixItems':
          if (Array.isArray(value)) out[key] = value.map((s) => this.core(s, depth + 1));
          break;
        case 'anyOf':
        case 'oneOf':
          this.alternatives(value, out, depth);
          break;
        case 'allOf':
          if (Array.isArray(value)) {
            const members = value.map((s) => this.core(s, depth + 1)).filter((s) => !isTrue(s));
            if (members.length > 0) out.allOf = members;
          }
          break;
        default:
          out[key] = value;
      }
    }
    return out;
  }

  /** `properties` without the inferred ones, and `required` without them either. */
  private properties(schema: Node, out: Node, depth: number): void {
    const properties = isObject(schema.properties) ? schema.properties : {};
    const kept = Object.entries(properties).filter(([, s]) => !isInferred(s));
    out.properties = Object.fromEntries(kept.map(([name, s]) => [name, this.core(s, depth + 1)]));
    if (Array.isArray(schema.required) && schema['x-required-provenance'] !== 'inferred') {
      const names = new Set(kept.map(([name]) => name));
      const required = schema.required.filter((name) => typeof name === 'string' && names.has(name));
      if (required.length > 0) out.required = required;
    }
  }

  /**
   * `anyOf`/`oneOf`: an inferred branch accepts anything, which makes the alternative constrain nothing; otherwise the
   * branches' cores, as `anyOf` (weaker than `oneOf`, whose branches may overlap once weakened).
   */
  private alternatives(value: unknown, out: Node, depth: number): void {
    if (!Array.isArray(value)) return;
    const branches = value.map((s) => (isInferred(s) ? true : this.core(s, depth + 1)));
    if (branches.length > 0 && !branches.some(isTrue)) out.anyOf = branches;
  }

  private keep(out: Node, key: string, schema: CoreSchema): void {
    if (!isTrue(schema)) out[key] = schema;
  }
}
