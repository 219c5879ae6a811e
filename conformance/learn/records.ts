import { ShapeOf, type RecordShape } from '../../spec/decisions/index.js';
import { operation } from '../../spec/operations/index.js';
import { pageOf } from '../contract/bodies.js';
import type { Exchange } from '../wire/client.js';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The records a deployment answers, gathered from every success answer of the run (Resources: "Other fields: not
 * shown"): per operation, the members its records carry (list items, or the object it returns) and the form of its
 * collections. Points `record-fields:<op>` and `list-form:<op>`; one answer can only show members present, so the
 * shape is built from all of them.
 */
export class RecordShapes {
  private readonly shapes = new Map<string, { shape: ShapeOf; first: Exchange }>();
  private readonly forms = new Map<string, { form: 'envelope' | 'array'; first: Exchange }>();

  /** Adds the records of a success answer of a contract operation. */
  scan(ex: Exchange): void {
    if (ex.status < 200 || ex.status >= 300 || !ex.operationId || ex.json === undefined) return;
    const op = operation(ex.operationId);
    const page = pageOf(ex);
    const collection = Array.isArray(ex.json) ? 'array' : page ? 'envelope' : undefined;
    let records: unknown[];
    if (collection) {
      if (!this.forms.has(op.operationId)) this.forms.set(op.operationId, { form: collection, first: ex });
      records = Array.isArray(ex.json) ? ex.json : (page?.results ?? []);
    } else records = [ex.json];
    let entry = this.shapes.get(op.operationId);
    for (const record of records.filter(isRecord)) {
      if (!entry) {
        entry = { shape: new ShapeOf(), first: ex };
        this.shapes.set(op.operationId, entry);
      }
      entry.shape.add(record);
    }
  }

  /** The shape of each operation's records, with the first answer that showed some. */
  shapesOf(): [string, RecordShape, Exchange][] {
    return [...this.shapes].map(([id, { shape, first }]) => [id, shape.shape(), first]);
  }

  /** The form of each collection answered, with the first answer. */
  formsOf(): [string, 'envelope' | 'array', Exchange][] {
    return [...this.forms].map(([id, { form, first }]) => [id, form, first]);
  }
}
