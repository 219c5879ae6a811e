/**
 * The name the runner's requests that learn what a target supports are recorded under (a list's filter and sort
 * probes): rules that cannot tell a probe from a claim (a sort the target ignores) leave these exchanges out.
 */
export const OBSERVE_CHECK = 'observe';
