import { catalogEntry } from '../../spec/errors/index.js';
import { OPERATIONS } from '../../spec/operations/index.js';
import type { ContractValidator } from '../../spec/validate.js';
import { fieldOf } from '../../spec/unknown-fields.js';

/**
 * What responses carry that the contract does not name, as information lines (never failures): members of objects
 * whose other fields are "not shown" (Resources; RFC 9457 extension members of problems), at any depth, and problem
 * codes the catalog does not list (Errors / Error code catalog). One line per operation and field,
 * `listSkus: results[].warehouseZone`, however many items or responses carry it.
 *
 * Order (inferred; a report keeps only the first lines): breadth first, one line of every operation before a second
 * line of any, so the lines kept cover every operation; within an operation, fields of success answers before
 * members of problems, deeper paths (fields of items) before shallower ones (envelope members), then by name. The
 * order does not depend on the order in which concurrent checks sent their requests.
 */
export class UnknownFieldLines {
  private readonly lines = new Map<string, { operationId: string; success: boolean; depth: number }>();

  constructor(private readonly validator: ContractValidator) {}

  /**
   * Notes the unknown members of one response body, and its code when the catalog does not list it. `paths`: the
   * unknown members when already worked out (the runner's judgments), else the validator finds them.
   */
  add(
    operationId: string,
    status: number,
    body: unknown,
    paths: readonly string[] = this.validator.unknownFields(operationId, { status, body }),
  ): void {
    const success = status < 400;
    for (const path of paths) {
      const field = fieldOf(path);
      this.note(`${operationId}: ${field}`, operationId, success, field.split(/\.|\[\]/).filter(Boolean).length);
    }
    const code = !success && body && typeof body === 'object' ? (body as { code?: unknown }).code : undefined;
    if (typeof code === 'string' && !catalogEntry(code))
      this.note(`${operationId}: code ${code.slice(0, 200)} (not in the error catalog)`, operationId, false, 0);
  }

  private note(line: string, operationId: string, success: boolean, depth: number): void {
    const known = this.lines.get(line);
    if (!known || (success && !known.success)) this.lines.set(line, { operationId, success, depth });
  }

  /** Every distinct line, in report order. */
  ordered(): string[] {
    const groups = new Map<string, { line: string; success: boolean; depth: number }[]>();
    for (const [line, l] of this.lines) {
      const group = groups.get(l.operationId) ?? [];
      group.push({ line, success: l.success, depth: l.depth });
      groups.set(l.operationId, group);
    }
    const rank = new Map(OPERATIONS.map((op, i) => [op.operationId, i]));
    const ops = [...groups.keys()].sort(
      (a, b) => (rank.get(a) ?? Infinity) - (rank.get(b) ?? Infinity) || a.localeCompare(b),
    );
    const sorted = ops.map((op) =>
      (groups.get(op) ?? [])
        .sort((a, b) => Number(b.success) - Number(a.success) || b.depth - a.depth || a.line.localeCompare(b.line))
        .map((l) => l.line),
    );
    const out: string[] = [];
    for (let round = 0; sorted.some((g) => round < g.length); round++)
      for (const g of sorted) if (round < g.length) out.push(g[round] as string);
    return out;
  }
}
