/**
 * `crossborder-sdk trigger TYPE` and `crossborder-sdk fixtures run FILE`: scenario files, a small
 * declarative format (JSON or YAML) of steps run against a running local sandbox.
 *
 * A scenario is `{ name?, steps: [...] }`. Each step is one of:
 * - `{ name?, <operationId>: input }`: any operation of the document (`createCustomer`,
 *   `sandboxFundInternalAccount`, `createQuote`, `executeQuote`, `approveTransaction`…), with the input
 *   of the MCP tools: path parameters and query fields by name, the body as `body` (for an operation
 *   with a body and nothing else, the input may be the body itself). Shorthands: `createCustomer`,
 *   `fund` (sandboxFundInternalAccount), `quote` (createQuote), `execute` (executeQuote).
 * - `{ advanceClock: '10m' }`: moves the sandbox clock (payments settle, quotes expire).
 * - `{ name?, expectWebhook: { type, match?: { 'data.id': … }, within?: '5s' } }`: waits for a
 *   delivery of that type whose body matches; its result is the event.
 * - `{ expect: { actual: …, equals: … } }`: fails the scenario unless the two are equal.
 * Strings may reference earlier results: `${steps.quote.id}`; a string that is only a reference
 * takes the value as it is (a number stays a number).
 * @module
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import type { Command } from 'commander';
import { operations, type DocumentOperation, type OperationId } from '../generated/operations';
import { sandboxCore } from './control';
import { out } from './output';
import { API_VERSION, control, refuseUnknownType } from './sandbox';
import { readData } from './resources';
import { splitInput, UsageError } from './table';

type Action = (json: boolean, body: () => Promise<void>) => Promise<void>;

/** One step of a scenario. */
export type Step = Record<string, unknown> & { name?: string };

/** A scenario file's content. */
export interface Scenario {
  name?: string;
  steps: Step[];
}

const SHORTHANDS: Record<string, OperationId> = { fund: 'sandboxFundInternalAccount', quote: 'createQuote', execute: 'executeQuote' };
const CONTROL_STEPS = new Set(['advanceClock', 'expectWebhook', 'expect']);

/** Reads a scenario file (JSON or YAML). */
export async function readScenario(file: string): Promise<Scenario> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  let value: unknown;
  try {
    value = /\.json$/i.test(file) ? JSON.parse(text) : (await import('yaml')).parse(text);
  } catch (error) {
    throw new UsageError(`${file}: not ${/\.json$/i.test(file) ? 'JSON' : 'YAML'} (${error instanceof Error ? error.message : String(error)})`);
  }
  return checkScenario(value, file);
}

function checkScenario(value: unknown, where: string): Scenario {
  const steps = (value as { steps?: unknown } | null)?.steps;
  if (!Array.isArray(steps)) throw new UsageError(`${where}: a scenario is { steps: [...] }`);
  steps.forEach((step, i) => {
    if (typeof step !== 'object' || step === null) throw new UsageError(`${where}: step ${i + 1} is not an object`);
    const actions = Object.keys(step).filter((k) => k !== 'name');
    if (actions.length !== 1) throw new UsageError(`${where}: step ${i + 1} needs exactly one action besides its name, got ${actions.join(', ') || 'none'}`);
    const action = actions[0]!;
    if (!CONTROL_STEPS.has(action) && !SHORTHANDS[action] && !(action in operations)) {
      throw new UsageError(`${where}: step ${i + 1}: unknown action '${action}' (an operationId such as createCustomer, or ${[...Object.keys(SHORTHANDS), ...CONTROL_STEPS].join(', ')})`);
    }
  });
  return value as Scenario;
}

/** A value at a dotted path (`data.0.id`). */
function at(value: unknown, path: string): unknown {
  let current = value;
  for (const part of path.split('.')) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

/** Replaces `${steps.NAME.path}` references with earlier results. */
export function resolveRefs(value: unknown, results: Record<string, unknown>): unknown {
  if (typeof value === 'string') {
    const whole = /^\$\{steps\.([^}]+)\}$/.exec(value);
    const lookup = (ref: string) => {
      const [name, ...rest] = ref.split('.');
      if (!(name! in results)) throw new UsageError(`\${steps.${ref}}: no earlier step named '${name}'`);
      const found = rest.length ? at(results[name!], rest.join('.')) : results[name!];
      if (found === undefined) throw new UsageError(`\${steps.${ref}}: step '${name}' has no ${rest.join('.')}`);
      return found;
    };
    if (whole) return lookup(whole[1]!);
    return value.replace(/\$\{steps\.([^}]+)\}/g, (_, ref: string) => {
      const found = lookup(ref);
      return typeof found === 'string' ? found : JSON.stringify(found);
    });
  }
  if (Array.isArray(value)) return value.map((v) => resolveRefs(v, results));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveRefs(v, results)]));
  return value;
}

/** Sets `value` at a dotted path, making the objects on the way. */
function setAt(target: Record<string, unknown>, path: string[], value: unknown): void {
  let current = target;
  for (const part of path.slice(0, -1)) {
    if (current[part] === null || typeof current[part] !== 'object') current[part] = {};
    current = current[part] as Record<string, unknown>;
  }
  current[path.at(-1)!] = value;
}

/**
 * Applies `--override STEP.field.path=value` to a scenario: the field of that step's input (its body
 * for a body operation, unless the path starts with a path parameter or `body`). A value that reads
 * as JSON (a number, true, an object) is taken as such, anything else as a string.
 */
export function applyOverrides(scenario: Scenario, overrides: string[]): Scenario {
  const copy = structuredClone(scenario);
  for (const override of overrides) {
    const eq = override.indexOf('=');
    if (eq <= 0) throw new UsageError(`--override needs STEP.path=value, got '${override}'`);
    const [stepName, ...path] = override.slice(0, eq).split('.');
    const text = override.slice(eq + 1);
    let value: unknown = text;
    try {
      value = JSON.parse(text);
    } catch {
      // a plain string
    }
    const step = copy.steps.find((s) => s.name === stepName);
    if (!step) throw new UsageError(`--override ${override}: no step named '${stepName}' (there are: ${copy.steps.map((s) => s.name).filter(Boolean).join(', ')})`);
    if (path.length === 0) throw new UsageError(`--override ${override}: give the field after the step name`);
    const action = Object.keys(step).find((k) => k !== 'name')!;
    const op = operations[(SHORTHANDS[action] ?? action) as OperationId] as DocumentOperation | undefined;
    const input = (step[action] ??= {}) as Record<string, unknown>;
    const pathParams = op ? [...op.path.matchAll(/\{([^{}]+)\}/g)].map((m) => m[1]!) : [];
    const inBody = op && op.params.body && 'body' in input && path[0] !== 'body' && !pathParams.includes(path[0]!);
    setAt(input, inBody ? ['body', ...path] : path, value);
  }
  return copy;
}

/** Where a scenario runs: the sandbox's address, and what it prints. */
export interface RunContext {
  /** The sandbox (`--url`); undefined: where every command points (./control sandboxUrl). */
  url: string | undefined;
  log: (line: string) => void;
}

/** A receiver for the scenario's webhooks when the sandbox has none: it defers approvals to the scenario's steps (202). */
async function ensureEndpoint(ctx: RunContext): Promise<(() => Promise<void>) | undefined> {
  const config = await control(ctx.url, 'GET', `/${API_VERSION}/config`);
  const current = (config.json as { webhookEndpoint?: string } | undefined)?.webhookEndpoint;
  if (current && (await reachable(current))) return undefined;
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const type = /"type"\s*:\s*"([^"]+)"/.exec(body)?.[1];
      res.statusCode = type === 'INCOMING_PAYMENT.PENDING' ? 202 : 200;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
  await control(ctx.url, 'PATCH', `/${API_VERSION}/config`, { webhookEndpoint: url });
  ctx.log(`(${current ? `the webhookEndpoint ${current} is not answering` : 'no webhookEndpoint was set'}: webhooks go to ${url} while the scenario runs)`);
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}

/** True when something accepts connections at the URL's host and port (nothing is sent). */
function reachable(url: string): Promise<boolean> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return Promise.resolve(false);
  }
  const port = Number(target.port || (target.protocol === 'https:' ? 443 : 80));
  return new Promise((resolve) => {
    const socket = connect({ host: target.hostname.replace(/^\[(.*)\]$/, '$1'), port, timeout: 2_000 });
    const done = (ok: boolean) => (socket.destroy(), resolve(ok));
    socket.once('connect', () => done(true));
    socket.once('timeout', () => done(false));
    socket.once('error', () => done(false));
  });
}

const durationMs = (text: unknown, fallback: number) => {
  const match = typeof text === 'string' ? /^(\d+)(ms|s|m)$/.exec(text.trim()) : null;
  return match ? Number(match[1]) * ({ ms: 1, s: 1_000, m: 60_000 } as const)[match[2] as 'ms' | 's' | 'm'] : typeof text === 'number' ? text : fallback;
};

/** Runs a scenario's steps in order; answers every named step's result. */
export async function runScenario(scenario: Scenario, ctx: RunContext): Promise<Record<string, unknown>> {
  const pipeline = sandboxCore(ctx.url);
  const results: Record<string, unknown> = {};
  const close = await ensureEndpoint(ctx);
  try {
    for (const [i, step] of scenario.steps.entries()) {
      const action = Object.keys(step).find((k) => k !== 'name')!;
      const label = `${String(i + 1).padStart(2)}. ${step.name ?? action}`;
      const input = resolveRefs(step[action], results);
      let result: unknown;
      if (action === 'advanceClock') {
        const res = await control(ctx.url, 'POST', '/_sandbox/clock', { advance: String(input) });
        if (res.status !== 200) throw new Error(`${label}: the sandbox refused the clock move: ${res.text}`);
        result = res.json;
        ctx.log(`${label}  clock +${String(input)} → ${(res.json as { now: string }).now}`);
      } else if (action === 'expectWebhook') {
        result = await expectWebhook(ctx, input as { type: string; match?: Record<string, unknown>; within?: string });
        ctx.log(`${label}  webhook ${(result as { type: string }).type} ${(result as { id: string }).id}`);
      } else if (action === 'expect') {
        const { actual, equals } = input as { actual: unknown; equals: unknown };
        if (JSON.stringify(actual) !== JSON.stringify(equals)) throw new Error(`${label}: expected ${JSON.stringify(equals)}, got ${JSON.stringify(actual)}`);
        result = actual;
        ctx.log(`${label}  ${JSON.stringify(actual)} as expected`);
      } else {
        const op = operations[(SHORTHANDS[action] ?? action) as OperationId] as DocumentOperation;
        const call = splitInput(op, input);
        if (op.paginated) result = (await pipeline.list<unknown>(op, call)).body;
        else result = await pipeline.call<unknown>(op, call);
        const r = result as { id?: string; status?: string; data?: unknown[] } | undefined;
        const shown = Array.isArray(r?.data) ? `${r.data.length} item(s)` : `${r?.id ?? ''}${r?.status ? ` ${r.status}` : ''}`;
        ctx.log(`${label}  ${op.method} ${op.path} → ${shown}`.trimEnd());
      }
      if (step.name) results[step.name] = result;
      results.last = result;
    }
  } finally {
    await close?.();
  }
  return results;
}

/** Waits for a delivery of `type` whose event matches (bounded by `within`, default 5 s of real time). */
async function expectWebhook(ctx: RunContext, spec: { type: string; match?: Record<string, unknown>; within?: string }): Promise<unknown> {
  const deadline = Date.now() + durationMs(spec.within, 5_000);
  for (;;) {
    const res = await control(ctx.url, 'GET', '/_sandbox/webhooks/deliveries');
    for (const delivery of ((res.json as { data?: { type: string; body: string }[] }).data ?? []).filter((d) => d.type === spec.type)) {
      const event = JSON.parse(delivery.body) as unknown;
      if (Object.entries(spec.match ?? {}).every(([path, want]) => JSON.stringify(at(event, path)) === JSON.stringify(want))) return event;
    }
    if (Date.now() > deadline) throw new Error(`no ${spec.type} webhook${spec.match ? ` matching ${JSON.stringify(spec.match)}` : ''} within ${spec.within ?? '5s'}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The built-in fixture behind each event type: the steps that make a realistic resource, ending in the step `resource`. */
export function fixtureFor(type: string): { scenario: Scenario; resource: string | undefined } {
  const customer = (fullName: string): Step => ({
    name: 'customer',
    createCustomer: { body: { customerType: 'INDIVIDUAL', region: 'US', fullName, birthDate: '1990-12-10', nationality: 'GB', address: { line1: '1 Main Street', city: 'Springfield', postalCode: '12345', country: 'US' } } },
  });
  const [family, outcome] = type.split('.') as [string, string];
  switch (family) {
    case 'CUSTOMER':
      return { scenario: { steps: [customer(outcome === 'KYC_REJECTED' ? 'Ada Lovelace Rejected' : 'Ada Lovelace')] }, resource: '${steps.customer.id}' };
    case 'VERIFICATION':
      return {
        scenario: { steps: [customer('Ada Lovelace'), { name: 'verifications', listVerifications: { customerId: '${steps.customer.id}' } }] },
        resource: '${steps.verifications.data.0.id}',
      };
    case 'INCOMING_PAYMENT':
      return {
        scenario: {
          steps: [
            customer('Ada Lovelace'),
            { name: 'payment', sandboxReceiveUmaPayment: { body: { senderUmaAddress: '$bob@sandbox.example', receivingCurrencyCode: 'USD', receivingCurrencyAmount: 4200, customerId: '${steps.customer.id}' } } },
          ],
        },
        resource: '${steps.payment.id}',
      };
    case 'OUTGOING_PAYMENT':
      return {
        scenario: {
          steps: [
            customer('Ada Lovelace'),
            { name: 'accounts', listInternalAccounts: { customerId: '${steps.customer.id}', currency: 'USD' } },
            { name: 'fund', fund: { accountId: '${steps.accounts.data.0.id}', body: { amount: 100000 } } },
            {
              name: 'payee',
              createExternalAccount: {
                body: {
                  customerId: '${steps.customer.id}',
                  currency: 'GBP',
                  accountInfo: { accountType: 'GBP_ACCOUNT', accountNumber: '31926819', routingNumber: '601613', bankName: 'Example Bank UK', beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Grace Hopper' } },
                },
              },
            },
            {
              name: 'quote',
              quote: {
                body: {
                  source: { sourceType: 'ACCOUNT', accountId: '${steps.accounts.data.0.id}' },
                  destination: { destinationType: 'ACCOUNT', accountId: '${steps.payee.id}' },
                  lockedCurrencySide: 'SENDING',
                  lockedCurrencyAmount: 25000,
                  immediatelyExecute: true,
                },
              },
            },
          ],
        },
        resource: '${steps.quote.transactionId}',
      };
    case 'INVITATION':
      return {
        scenario: { steps: [customer('Ada Lovelace'), { name: 'invitation', createInvitation: { body: { inviterUma: '${steps.customer.umaAddress}' } } }] },
        resource: '${steps.invitation.code}',
      };
    default:
      return { scenario: { steps: [] }, resource: undefined };
  }
}

/** Adds `trigger`. */
export function addTriggerCommand(program: Command, action: Action): void {
  program
    .command('trigger')
    .description('make the local sandbox emit an event of TYPE, with a realistic resource made behind it (a customer, a payment…)')
    .argument('<type>', 'the event type (INCOMING_PAYMENT.PENDING, OUTGOING_PAYMENT.COMPLETED, CUSTOMER.KYC_APPROVED, TEST…)')
    .option('--override <step.path=value>', 'change a field of the fixture, e.g. customer.fullName=Grace (repeatable)', (v: string, all: string[] = []) => [...all, v])
    .option('--data <json|@file|->', 'your own fixture: a scenario (steps) whose step named "resource" (else the last) is the resource')
    .option('--url <url>', 'the sandbox (default: CROSSBORDER_BASE_URL, else http://127.0.0.1:4010)')
    .option('--json', 'print the result as one JSON line')
    .action(async (type: string, opts: { override?: string[]; data?: string; url?: string; json?: boolean }) =>
      action(opts.json === true, async () => {
        refuseUnknownType(type);
        const builtIn = fixtureFor(type);
        let scenario = builtIn.scenario;
        let resource = builtIn.resource;
        if (opts.data !== undefined) {
          scenario = checkScenario(await readData(opts.data), '--data');
          resource = scenario.steps.some((s) => s.name === 'resource') ? '${steps.resource.id}' : '${steps.last.id}';
        }
        scenario = applyOverrides(scenario, opts.override ?? []);
        const log = opts.json ? () => {} : (line: string) => out(`${line}\n`);
        const results = await runScenario(scenario, { url: opts.url, log });
        const resourceId = resource === undefined || type === 'TEST' ? undefined : String(resolveRefs(resource, results));
        const res = await control(opts.url, 'POST', '/_sandbox/webhooks/trigger', { type, ...(resourceId ? { resourceId } : {}) });
        if (res.status !== 200) {
          const hint = res.text.includes('webhookEndpoint') ? ' (run crossborder-sdk listen --forward-to URL, or crossborder-sdk sandbox webhook-url URL)' : '';
          throw new Error(`the sandbox did not send ${type}: ${res.text}${hint}`);
        }
        const { eventId } = res.json as { eventId: string };
        if (opts.json) out(`${JSON.stringify({ type, eventId, resourceId: resourceId ?? null })}\n`);
        else out(`Triggered ${type} ${eventId}${resourceId ? ` about ${resourceId}` : ''}\n`);
      }),
    );
}

/** Adds `fixtures run`. */
export function addFixturesCommand(program: Command, action: Action): void {
  program
    .command('fixtures')
    .description('scenario files: steps run against the local sandbox')
    .command('run')
    .description('run a scenario file (JSON or YAML): create a customer, fund, quote, execute, advance the clock, expect a webhook; ${steps.NAME.field} references')
    .argument('<file>')
    .option('--url <url>', 'the sandbox (default: CROSSBORDER_BASE_URL, else http://127.0.0.1:4010)')
    .option('--json', 'print the named results as one JSON object at the end')
    .action(async (file: string, opts: { url?: string; json?: boolean }) =>
      action(opts.json === true, async () => {
        const scenario = await readScenario(file);
        const log = opts.json ? () => {} : (line: string) => out(`${line}\n`);
        if (scenario.name && !opts.json) out(`${scenario.name}\n`);
        const results = await runScenario(scenario, { url: opts.url, log });
        delete results.last;
        if (opts.json) out(`${JSON.stringify(results)}\n`);
        else out(`done: ${scenario.steps.length} steps\n`);
      }),
    );
}
