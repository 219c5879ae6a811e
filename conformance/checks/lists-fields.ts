import { expectedListFields } from '../contract/decided.js';
import { label, listOperations } from '../contract/contract.js';
import type { CheckDef } from '../context.js';
import { listProfile } from '../observe/list-profile.js';
import { CLAUSE, eachList } from './lists-support.js';

/**
 * The contract's field tables against what the target supports. Which fields each endpoint filters and sorts by, and
 * with which operators, is not shown (Endpoints / List and search endpoints), so the contract's tables are its own
 * decisions: a field the table offers that the target refuses or ignores is a SHOULD failure, and the fields and
 * spellings the target has beyond the table are information.
 */
export function fieldSupportChecks(): CheckDef[] {
  return [
    {
      id: 'lists.field-support',
      title: "Each list filters and sorts by the fields, with the operators, of the contract's field table",
      family: 'lists',
      clause: `${CLAUSE} (which fields each endpoint supports, and with which operators: not shown)`,
      level: 'SHOULD',
      run: (c) =>
        eachList(c, listOperations(), async (data) => {
          const profile = await listProfile(c, data);
          const where = label(data.op);
          for (const f of profile.fields)
            c.inform(
              `${where}: ${f.name} (${f.type})${f.query !== f.name ? ` taken as ${f.query}` : ''}: ${
                f.filterable ? `filters ${f.operators.join(', ')}` : 'no filter'
              }; ${f.sortable ? 'sorts' : `no sort (${f.sortNotSupported ?? 'refused'})`}`,
            );
          const table = expectedListFields(c.run, data.op);
          for (const field of table) {
            const seen = profile.fields.find((f) => f.name.toLowerCase() === field.name.toLowerCase());
            if (!seen) {
              c.inform(`${where}: the items carry no ${field.name} (a field of the contract's table)`);
              continue;
            }
            c.exercised(`${where} ${field.name}`);
            if (field.filterable) {
              const missing = field.operators.filter((op) => !seen.operators.includes(op) && seen.refused.includes(op));
              c.expect(
                missing.length === 0,
                `${where}: filterBy refuses ${missing.join(', ')} on ${field.name}`,
                undefined,
                `${field.name} filterable with ${field.operators.join(', ')}`,
                `refused: ${missing.join(', ')}`,
              );
            }
            if (field.sortable)
              c.expect(
                seen.sortable,
                `${where}: sortBy=${field.name} is ${seen.sortNotSupported ?? 'not supported'}`,
                undefined,
                `sortable by ${field.name}`,
                seen.sortNotSupported ?? 'not supported',
              );
          }
        }),
    },
  ];
}
