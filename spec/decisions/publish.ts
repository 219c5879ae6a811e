import type { OpenAPIObject } from 'openapi3-ts/oas31';
import type { DecisionFile } from './file.js';
import { decisionPoints, type DecisionKind, type DecisionPoint, type DecisionValues } from './points.js';
import {
  applyApiKeyAlone,
  applyKeyRepeatingBearer,
  applyPermission,
  applyProblem401Type,
  applyProblemMediaType,
} from './publish-auth.js';
import { applyBehaviour, settlesBehaviour } from './publish-behaviour.js';
import { applyCodeStatuses, type CodeMove } from './publish-codes.js';
import { applyListFields, applyListRule } from './publish-lists.js';
import type { Observation } from './publish-marks.js';
import { applyCatalogTexts, applyWebhookAttempt, applyWebhookEventId } from './publish-notes.js';
import { applyListForm, applyRecordFields, applyWebhookPayload } from './publish-records.js';
import { applyRetryDelay, applySuccessStatus } from './publish-responses.js';
import { applyCaseRule, applyDefaultOrder, applyOtherKey, TEXT_OPERATORS } from './publish-texts.js';

/** One entry of the document's `x-decisions.observed`. */
interface ObservedDecision {
  id: string;
  inferred: unknown;
  observed: unknown;
}

/** What an applier of one kind is given: the document, the point, its observed value and where it was observed. */
type Applier<K extends DecisionKind> = (
  doc: OpenAPIObject,
  point: DecisionPoint<K>,
  observed: DecisionValues[K],
  at: Observation,
) => void;

/** How each kind of decision is published (code statuses are gathered first and moved together, publish-codes.ts). */
const APPLY: { [K in Exclude<DecisionKind, 'code-status'>]: Applier<K> } = {
  'success-status': (doc, p, v, at) => applySuccessStatus(doc, p.id, p.subject ?? '', p.inferred, v, at),
  'retry-delay': (doc, p, v, at) => applyRetryDelay(doc, p.id, p.inferred, v, at),
  'other-api-key-with-bearer': (doc, p, v, at) => applyOtherKey(doc, p.id, p.inferred, v, at),
  'key-repeating-bearer': (doc, p, v, at) => applyKeyRepeatingBearer(doc, p.id, p.inferred, v, at),
  'api-key-alone': (doc, p, v, at) => applyApiKeyAlone(doc, p.id, p.inferred, v, at),
  'text-case': (doc, p, v, at) => applyCaseRule(doc, p.id, TEXT_OPERATORS, p.inferred, v, at),
  'equals-case': (doc, p, v, at) => applyCaseRule(doc, p.id, ['Equals'], p.inferred, v, at),
  'default-order': (doc, p, v, at) => applyDefaultOrder(doc, p.id, p.subject ?? '', p.inferred, v, at),
  'unknown-sort-field': (doc, p, v, at) => applyListRule(doc, p.id, 'unknown-sort-field', p.inferred, v, at),
  'null-order': (doc, p, v, at) => applyListRule(doc, p.id, 'null-order', p.inferred, v, at),
  'field-name-case': (doc, p, v, at) => applyListRule(doc, p.id, 'field-name-case', p.inferred, v, at),
  'filter-precedence': (doc, p, v, at) => applyListRule(doc, p.id, 'filter-precedence', p.inferred, v, at),
  'date-only-equals': (doc, p, v, at) => applyListRule(doc, p.id, 'date-only-equals', p.inferred, v, at),
  'list-fields': (doc, p, v, at) => applyListFields(doc, p.id, p.subject ?? '', p.inferred, v, at),
  'list-form': (doc, p, v, at) => applyListForm(doc, p.id, p.subject ?? '', p.inferred, v, at),
  // Records only where they differ: an observation that agrees with the schema would only loosen it.
  'record-fields': (doc, p, v, at) =>
    p.same(p.inferred, v) ? undefined : applyRecordFields(doc, p.id, p.subject ?? '', p.inferred, v, at),
  'webhook-payload': (doc, p, v, at) =>
    p.same(p.inferred, v) ? undefined : applyWebhookPayload(doc, p.id, p.inferred, v, at),
  'webhook-event-id': (doc, p, v, at) =>
    p.same(p.inferred, v) ? undefined : applyWebhookEventId(doc, p.id, p.inferred, v, at),
  'webhook-attempt': (doc, p, v, at) =>
    p.same(p.inferred, v) ? undefined : applyWebhookAttempt(doc, p.id, p.inferred, v, at),
  'problem-media-type': (doc, p, v, at) => applyProblemMediaType(doc, p.id, p.inferred, v, at),
  'problem-401-type': (doc, p, v, at) => applyProblem401Type(doc, p.id, p.inferred, v, at),
  'catalog-texts': (doc, p, v, at) => applyCatalogTexts(doc, p.id, p.inferred, v, at),
  permission: (doc, p, v, at) => applyPermission(doc, p.id, p.subject ?? '', p.inferred, v, at),
};

/**
 * Kinds applied after the others: a success status moves its response before the records of the response are
 * written, and a collection takes its form before its items are adapted.
 */
const LATE: ReadonlySet<DecisionKind> = new Set(['list-form', 'record-fields']);

/**
 * The contract document adapted to a decision file (`opsapi spec --decisions`): every recorded decision is applied
 * where the document states it, and the node it changes is marked `x-provenance: observed` with
 * `x-observed: { target, date, decisions, inferred }` (publish-marks.ts). The top-level `x-decisions` lists what was
 * observed, and `info.description` says the contract was adapted. Decisions about behaviour the contract states
 * in its `x-behaviour` nodes change those nodes too (publish-behaviour.ts). Pure: the input document is deep-copied (a JSON
 * copy, so no two nodes of the result are one object) and never changed.
 */
export function withObservedDecisions(document: OpenAPIObject, file: DecisionFile): OpenAPIObject {
  const doc = JSON.parse(JSON.stringify(document)) as OpenAPIObject;
  const at: Observation = { target: file.target, date: file.date };
  const observed: ObservedDecision[] = [];
  const moves: CodeMove[] = [];
  const late: [DecisionPoint, unknown][] = [];
  const apply = (point: DecisionPoint, value: unknown) =>
    (APPLY[point.kind as Exclude<DecisionKind, 'code-status'>] as Applier<DecisionKind>)(
      doc,
      point,
      value as never,
      at,
    );
  for (const decision of file.decisions) {
    const point = decisionPoints().get(decision.id);
    if (!point) continue;
    observed.push({ id: point.id, inferred: point.inferred, observed: decision.observed });
    if (point.kind === 'code-status')
      moves.push({
        id: point.id,
        code: point.subject ?? '',
        inferred: point.inferred as number,
        observed: decision.observed as number,
      });
    else if (LATE.has(point.kind)) late.push([point, decision.observed]);
    else apply(point, decision.observed);
    if (settlesBehaviour(point.kind)) applyBehaviour(doc, point.id, point.kind, decision.observed, at);
  }
  applyCodeStatuses(doc, moves, at);
  // The form of a collection before the records of its items.
  late.sort(([a], [b]) => Number(a.kind === 'record-fields') - Number(b.kind === 'record-fields'));
  for (const [point, value] of late) apply(point, value);
  if (observed.length > 0)
    doc.info.description = `${doc.info.description ?? ''}\n\n${adaptedLine(at, observed.length)}`.trimStart();
  doc['x-decisions'] = {
    target: file.target,
    date: file.date,
    tool: file.tool,
    observed,
    ...(file.notObserved.length > 0 ? { notObserved: file.notObserved } : {}),
  };
  return doc;
}

/** The line `info.description` gains: the contract was adapted to what a target showed, and where that is listed. */
function adaptedLine(at: Observation, count: number): string {
  const where = `${at.target || 'the target'}${at.date ? ` on ${at.date}` : ''}`;
  return `This contract was adapted to observations of ${where} (${count} decision point(s), listed in \`x-decisions\`): what they changed is marked \`x-provenance: observed\` with \`x-observed\`.`;
}
