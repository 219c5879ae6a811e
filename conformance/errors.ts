/**
 * Errors `runConformance` throws instead of returning a report; the CLI maps each to exit 2 with one line on stderr.
 * A target that answers but does not conform is never an error: it is a report with exit code 1.
 */

/** Bad options (exit 2). */
export class UsageError extends Error {
  override readonly name: string = 'UsageError';
}

/**
 * The run holds no credential for the target: no token, API key or token command, and no admin API to mint one.
 * Inferred: without it every check but the unauthenticated ones would be skipped, and a gate that tests nothing must
 * not pass (a CI job whose secret is missing gets an empty `OPSAPI_TOKEN`).
 */
export class NoCredentialError extends UsageError {
  override readonly name: string = 'NoCredentialError';
  constructor(
    readonly target: string,
    detail?: string,
  ) {
    super(
      `no credential for ${target}${detail ? ` (${detail})` : ''}: pass --token (or OPSAPI_TOKEN), --api-key, --token-command, or target a mock with its admin API`,
    );
  }
}

/** The target does not answer at all (exit 2). */
export class TargetUnreachableError extends Error {
  override readonly name: string = 'TargetUnreachableError';
}

/**
 * The target refused (401) a credential the run was given or minted: at the start, on the read that proves each one
 * before any check, or during the run (it expired, and `--token-command` could not renew it). Exit 2, like a usage
 * error: while its own credentials are refused a run proves nothing about the target, and its 401s are not the
 * target's failures (Authentication, point 3: only a request "without valid authentication" gets 401).
 */
export class CredentialRefusedError extends Error {
  override readonly name: string = 'CredentialRefusedError';
  constructor(
    /** The credential as its option names it (`--token`), or how the run obtained it. */
    readonly credential: string,
    /** The refusal's problem `detail` (or what stood in for it), credentials redacted. */
    readonly detail: string,
    /** Where it was refused: at the start, or the request of the run that met the 401. */
    readonly during?: string,
  ) {
    super(`the target refused ${credential}${during ? ` ${during}` : ''}: ${detail}`);
  }
}
