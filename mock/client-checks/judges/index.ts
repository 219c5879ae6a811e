import type { CheckResult } from '../../../common/report/types.js';
import { CLIENT_CHECKS, type ClientFamily } from '../checks.js';
import type { JudgeOptions, Trace } from '../trace.js';
import { eventNamesFromVersions, readsAfterNotification, subscribesOfferedVersions } from './events.js';
import { filterEncoding, pageWalkComplete, pageWalkStops, pagingBounds } from './lists.js';
import {
  receiverAccepts,
  receiverDedup,
  receiverFast,
  receiverRawBody,
  receiverRefusesForged,
  receiverRejectsForged,
} from './receiver.js';
import { authBearer, bodyContentType } from './requests.js';
import { retryAfterRetries, retryAfterWait } from './retry.js';
import type { Judge } from './support.js';

/** The judge of each check of the table. */
const JUDGES: Readonly<Record<string, Judge>> = {
  'client.auth-bearer': authBearer,
  'client.body-content-type': bodyContentType,
  'client.paging-bounds': pagingBounds,
  'client.filter-encoding': filterEncoding,
  'client.page-walk-stops': pageWalkStops,
  'client.page-walk-complete': pageWalkComplete,
  'client.retry-after-wait': retryAfterWait,
  'client.retry-after-retries': retryAfterRetries,
  'client.receiver-accepts': receiverAccepts,
  'client.receiver-raw-body': receiverRawBody,
  'client.receiver-rejects-forged': receiverRejectsForged,
  'client.receiver-refuses-forged': receiverRefusesForged,
  'client.receiver-fast': receiverFast,
  'client.receiver-dedup': receiverDedup,
  'client.reads-after-notification': readsAfterNotification,
  'client.event-names-from-versions': eventNamesFromVersions,
  'client.subscribes-offered-versions': subscribesOfferedVersions,
};

/** Every check of the table judged over a trace, in table order (a judge over recorded traffic takes no time). */
export function judgeAll(trace: Trace, options: JudgeOptions, now: number): CheckResult<ClientFamily>[] {
  return CLIENT_CHECKS.map((def) => {
    const judge = JUDGES[def.id];
    if (!judge) throw new Error(`no judge for ${def.id}`);
    const j = judge(trace, options, now);
    return {
      id: def.id,
      title: def.title,
      family: def.family,
      clause: def.clause,
      level: def.level,
      outcome: j.outcome,
      ...(j.reason !== undefined ? { reason: j.reason } : {}),
      evidence: j.evidence,
      failureCount: j.failureCount,
      durationMs: 0,
    };
  });
}
