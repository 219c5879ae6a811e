import { decisionPoints, type DecisionKind, type Decisions } from '../../spec/decisions/index.js';
import { operation } from '../../spec/operations/index.js';
import { sortableField } from './handlers.js';

/**
 * Why the mock does not take each kind of decision it cannot act on. The mock keeps the contract's records, catalog
 * and filter language (its fixtures, handlers and list engine are built on them): a deployment's own member names,
 * texts or parsing rules are facts for clients and for the runner (`opsapi conform --decisions`), not behaviour the
 * mock can take on without becoming another server.
 */
const WHY: Partial<Record<DecisionKind, string>> = {
  'record-fields': "its records keep the contract's members (field names of records are not adopted)",
  'list-fields': "its lists filter and sort by the contract's fields",
  'list-form': 'its collections keep the form the contract gives them',
  'webhook-payload': "its deliveries keep the contract's payload members",
  'webhook-event-id': 'its deliveries keep X-Event-Id and the payload id',
  'webhook-attempt': "its attempt records keep the contract's members",
  'catalog-texts': "its error catalog keeps the contract's texts",
  permission: "its operations keep the contract's permissions",
  'field-name-case': "its filter parser keeps the contract's rule for field names",
  'filter-precedence': 'its filter parser keeps && binding tighter than ||',
  'date-only-equals': 'its filter engine keeps matching a date-only value to the whole UTC day',
};

/**
 * The decisions of a file that differ from the contract and that the mock does not adopt, each with the reason (one
 * line each at start-up): the kinds above, and a default order on a field the mock's list does not sort by.
 */
export function notAdopted(decisions: Decisions): { id: string; reason: string }[] {
  const out: { id: string; reason: string }[] = [];
  for (const [id, observed] of decisions) {
    const point = decisionPoints().get(id);
    if (!point || point.same(point.inferred, observed)) continue;
    const why = WHY[point.kind];
    if (why) out.push({ id, reason: why });
    else if (point.kind === 'default-order' && point.subject) {
      const order = String(observed);
      if (order === 'none') out.push({ id, reason: 'no field gives the order: the mock keeps ordering by id' });
      else if (!sortableField(operation(point.subject), order))
        out.push({
          id,
          reason: `the mock's list does not sort by ${order.replace(/^-/, '')}: it keeps ordering by id`,
        });
    }
  }
  return out;
}
