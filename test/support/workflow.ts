import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';

/** One step of a GitHub Actions job, as far as these tests run it. */
export interface WorkflowStep {
  name?: string;
  uses?: string;
  run?: string;
  if?: string;
  env?: Record<string, string | number | boolean>;
  with?: Record<string, unknown>;
  'working-directory'?: string;
  shell?: string;
}

/** A GitHub Actions job: its steps and job-level env. */
export interface WorkflowJob {
  env?: Record<string, string | number | boolean>;
  steps: WorkflowStep[];
}

/** The first fenced block of `language` after the Markdown heading `heading` (null when there is none). */
export function fencedBlockAfter(markdown: string, heading: string, language: string): string | null {
  const at = markdown
    .split('\n')
    .findIndex((line) => /^#+\s/.test(line) && line.replace(/^#+\s+/, '').trim() === heading);
  if (at < 0) return null;
  const rest = markdown
    .split('\n')
    .slice(at + 1)
    .join('\n');
  const block = new RegExp(`^\`\`\`${language}\\n([\\s\\S]*?)^\`\`\``, 'm').exec(rest);
  return block?.[1] ?? null;
}

/** The jobs of a workflow written as YAML. */
export function workflowJobs(yamlText: string): Record<string, WorkflowJob> {
  const doc = parse(yamlText) as { jobs?: Record<string, WorkflowJob> } | null;
  return doc?.jobs ?? {};
}

/** What `${{ secrets.NAME }}` and `${{ vars.NAME }}` read; an unset one is the empty string, as on GitHub. */
export interface ExpressionContext {
  secrets: Record<string, string>;
  vars: Record<string, string>;
}

/**
 * Substitutes the `${{ secrets.X }}` and `${{ vars.X }}` expressions of a value. Any other expression is refused,
 * so the recipe cannot rely on something these tests do not emulate.
 */
function substitute(value: string, context: ExpressionContext): string {
  return value.replace(/\$\{\{\s*([^}]*?)\s*\}\}/g, (_, expression: string) => {
    const m = /^(secrets|vars)\.([A-Za-z_][A-Za-z0-9_]*)$/.exec(expression);
    if (!m)
      throw new Error(
        `the workflow uses the expression \${{ ${expression} }}, which this test runner does not emulate`,
      );
    return (m[1] === 'secrets' ? context.secrets : context.vars)[m[2]!] ?? '';
  });
}

/** The outcome of one `run:` step. */
interface StepOutcome {
  name: string;
  exitCode: number;
  output: string;
  durationMs: number;
}

/** The outcome of a job: its exit code (that of the first failed step, 0 when none failed) and each step run. */
interface JobOutcome {
  exitCode: number;
  steps: StepOutcome[];
}

interface RunJobOptions {
  /** The job's working folder (GITHUB_WORKSPACE). */
  workspace: string;
  context: ExpressionContext;
  /** Environment every step starts from (the runner's own). */
  baseEnv: NodeJS.ProcessEnv;
  /** Which `run:` steps to run (default: all); the others count as not there. */
  select?: (step: WorkflowStep) => boolean;
  /** Longest a step may run, ms (then its process group is killed and the step fails). */
  stepTimeoutMs: number;
}

/** Whether a step runs, given its `if:` and whether an earlier step failed (only the status functions are emulated). */
function shouldRun(step: WorkflowStep, failed: boolean): boolean {
  const condition = (step.if ?? 'success()').replace(/^\$\{\{\s*|\s*\}\}$/g, '').trim();
  if (condition === 'always()') return true;
  if (condition === 'success()') return !failed;
  if (condition === 'failure()') return failed;
  throw new Error(`the workflow uses the condition "${step.if}", which this test runner does not emulate`);
}

/** Runs a shell script the way GitHub runs `run:` on Linux: `bash --noprofile --norc -eo pipefail {file}`. */
function runScript(
  script: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
): Promise<{ exitCode: number; output: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'opsapi-step-'));
  const file = join(dir, 'step.sh');
  writeFileSync(file, script);
  return new Promise((resolve) => {
    // Its own process group, so a timeout reaches every process the step started.
    const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', file], {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => {
      output += `\n[step killed after ${timeoutMs} ms]\n`;
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }, timeoutMs);
    child.once('close', (code) => {
      clearTimeout(timer);
      rmSync(dir, { recursive: true, force: true });
      resolve({ exitCode: code ?? 1, output });
    });
  });
}

/**
 * Runs the `run:` steps of a job in order, as a runner would: `uses:` steps are left to the caller (it does their work
 * beforehand, e.g. the checkout), `env:` of the job and of each step is applied with the expressions substituted,
 * a failed step skips the later steps that lack `if: always()`.
 */
export async function runJob(job: WorkflowJob, options: RunJobOptions): Promise<JobOutcome> {
  const steps: StepOutcome[] = [];
  let exitCode = 0;
  const envOf = (values: WorkflowStep['env']) =>
    Object.fromEntries(Object.entries(values ?? {}).map(([k, v]) => [k, substitute(String(v), options.context)]));
  for (const [index, step] of job.steps.entries()) {
    if (step.run === undefined || (options.select && !options.select(step))) continue;
    if (!shouldRun(step, exitCode !== 0)) continue;
    if (step.shell !== undefined && step.shell !== 'bash')
      throw new Error(`step "${step.name}" uses shell ${step.shell}, which this test runner does not emulate`);
    const cwd = step['working-directory'] ? join(options.workspace, step['working-directory']) : options.workspace;
    const env = { ...options.baseEnv, GITHUB_WORKSPACE: options.workspace, ...envOf(job.env), ...envOf(step.env) };
    const started = performance.now();
    const result = await runScript(substitute(step.run, options.context), cwd, env, options.stepTimeoutMs);
    steps.push({
      name: step.name ?? `step ${index + 1}`,
      ...result,
      durationMs: Math.round(performance.now() - started),
    });
    if (result.exitCode !== 0 && exitCode === 0) exitCode = result.exitCode;
  }
  return { exitCode, steps };
}
