import type { OpenAPIObject } from 'openapi3-ts/oas31';
import type { DecisionFile } from './file.js';
import { decisionPoint, type OtherKeyRule, type RetryDelay, type TextCase } from './points.js';
import { applyCodeStatuses, type CodeMove } from './publish-codes.js';
import type { Observation } from './publish-marks.js';
import { applyRetryDelay, applySuccessStatus } from './publish-responses.js';
import { applyCaseRule, applyDefaultOrder, applyOtherKey, TEXT_OPERATORS } from './publish-texts.js';

/** One entry of the document's `x-decisions.observed`. */
export interface ObservedDecision {
  id: string;
  inferred: unknown;
  observed: unknown;
}

/**
 * The contract document adapted to a decision file (`opsapi spec --decisions`): every recorded decision is applied
 * where the document states it, and the node it changes is marked `x-provenance: observed` with
 * `x-observed: { target, date, decisions, inferred }` (publish-marks.ts). The top-level `x-decisions` lists what was
 * observed, and `info.description` says the contract was adapted. Pure: the input document is deep-copied (a JSON
 * copy, so no two nodes of the result are one object) and never changed.
 */
export function withObservedDecisions(document: OpenAPIObject, file: DecisionFile): OpenAPIObject {
  const doc = JSON.parse(JSON.stringify(document)) as OpenAPIObject;
  const at: Observation = { target: file.target, date: file.date };
  const observed: ObservedDecision[] = [];
  const moves: CodeMove[] = [];
  for (const decision of file.decisions) {
    const point = decisionPoint(decision.id);
    if (!point) continue;
    observed.push({ id: point.id, inferred: point.inferred, observed: decision.observed });
    const subject = point.subject ?? '';
    switch (point.kind) {
      case 'code-status':
        moves.push({
          id: point.id,
          code: subject,
          inferred: point.inferred as number,
          observed: decision.observed as number,
        });
        break;
      case 'success-status':
        applySuccessStatus(doc, point.id, subject, point.inferred as number, decision.observed as number, at);
        break;
      case 'retry-delay':
        applyRetryDelay(doc, point.id, point.inferred as RetryDelay, decision.observed as RetryDelay, at);
        break;
      case 'other-api-key-with-bearer':
        applyOtherKey(doc, point.id, point.inferred as OtherKeyRule, decision.observed as OtherKeyRule, at);
        break;
      case 'text-case':
        applyCaseRule(doc, point.id, TEXT_OPERATORS, point.inferred as TextCase, decision.observed as TextCase, at);
        break;
      case 'equals-case':
        applyCaseRule(doc, point.id, ['Equals'], point.inferred as TextCase, decision.observed as TextCase, at);
        break;
      case 'default-order':
        applyDefaultOrder(doc, point.id, subject, point.inferred as string, decision.observed as string, at);
        break;
    }
  }
  applyCodeStatuses(doc, moves, at);
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
