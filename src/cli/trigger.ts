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
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Command } from 'commander';
import { operations, type DocumentOperation, type OperationId } from '../generated/operations';
import { sandboxCore, sandboxUrl } from './control';
import { shownUrl } from './shared';
import { parseJsonText, readFileBounded } from './files';
import { jsonLine, out, visible } from './output';
import { readBounded } from './sdk';
import { attachListener, control, refuseUnknownType } from './sandbox';
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
/** The operation a step's action names (an operationId or a shorthand), own properties only. */
function operationOf(action: string): DocumentOperation | undefined {
  const id = Object.hasOwn(SHORTHANDS, action) ? SHORTHANDS[action]! : action;
  return Object.hasOwn(operations, id) ? operations[id as OperationId] : undefined;
}
/** Path segments that reach an object's prototype: refused in `--override` paths. */
const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** Reads a scenario file (JSON or YAML). */
export async function readScenario(file: string): Promise<Scenario> {
  const text = readFileBounded(file, file);
  let value: unknown;
  if (/\.json$/i.test(file)) value = parseJsonText(text, file);
  else {
    try {
      value = (await import('yaml')).parse(text);
    } catch (error) {
      throw new UsageError(`${file}: not YAML (${error instanceof Error ? error.message : String(error)})`);
    }
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
    // Own properties only: `constructor`, `toString` or `__proto__` are no action.
    if (!CONTROL_STEPS.has(action) && !operationOf(action)) {
      throw new UsageError(
        `${where}: step ${i + 1}: unknown action '${action}' (an operationId such as createCustomer, or ${[...Object.keys(SHORTHANDS), ...CONTROL_STEPS].join(', ')})`,
      );
    }
  });
  return value as Scenario;
}

/** A value at a dotted path (`data.0.id`). */
function at(value: unknown, path: string): unknown {
  let current = value;
  for (const part of path.split('.')) {
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, part)) return undefined;
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
      if (!Object.hasOwn(results, name!)) throw new UsageError(`\${steps.${ref}}: no earlier step named '${name}'`);
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
    // A path through an object's prototype would change every object of the process.
    const unsafe = [stepName!, ...path].find((part) => PROTOTYPE_KEYS.has(part));
    if (unsafe !== undefined) throw new UsageError(`--override ${override.slice(0, eq)}: '${unsafe}' cannot be a field of the path`);
    const text = override.slice(eq + 1);
    let value: unknown = text;
    try {
      value = JSON.parse(text);
    } catch {
      // a plain string
    }
    const step = copy.steps.find((s) => s.name === stepName);
    if (!step)
      throw new UsageError(
        `--override ${override}: no step named '${stepName}' (there are: ${copy.steps
          .map((s) => s.name)
          .filter(Boolean)
          .join(', ')})`,
      );
    if (path.length === 0) throw new UsageError(`--override ${override}: give the field after the step name`);
    const action = Object.keys(step).find((k) => k !== 'name')!;
    const op = operationOf(action);
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

/**
 * The scenario's own delivery target, attached beside the configured endpoint for as long as the
 * scenario runs (the endpoint is never changed): every event is delivered, and logged, even when the
 * sandbox has no endpoint. It observes: its answers decide nothing (an approval request is answered
 * 202, and whichever target decides approvals still does). Answers the detach.
 */
async function attachObserver(ctx: RunContext): Promise<() => Promise<void>> {
  const server = createServer((req, res) => {
    void readBounded(req, 1024 * 1024, { rest: 'drain' }).then(
      ({ bytes }) => {
        const type = /"type"\s*:\s*"([^"]+)"/.exec(new TextDecoder().decode(bytes))?.[1];
        res.statusCode = type === 'INCOMING_PAYMENT.PENDING' ? 202 : 200;
        res.end();
      },
      () => res.destroy(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
  let listener;
  try {
    listener = await attachListener(sandboxUrl(ctx.url), url, 'observe');
  } catch (error) {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    throw error;
  }
  return async () => {
    listener.detach();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
}

const durationMs = (text: unknown, fallback: number) => {
  const match = typeof text === 'string' ? /^(\d+)(ms|s|m)$/.exec(text.trim()) : null;
  return match ? Number(match[1]) * ({ ms: 1, s: 1_000, m: 60_000 } as const)[match[2] as 'ms' | 's' | 'm'] : typeof text === 'number' ? text : fallback;
};

/** Runs a scenario's steps in order; answers every named step's result. */
export async function runScenario(scenario: Scenario, ctx: RunContext): Promise<Record<string, unknown>> {
  const pipeline = sandboxCore(ctx.url);
  // No prototype: a step named `__proto__` or `constructor` is a step like any other.
  const results: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  const close = await attachObserver(ctx);
  try {
    for (const [i, step] of scenario.steps.entries()) {
      const action = Object.keys(step).find((k) => k !== 'name')!;
      const label = `${String(i + 1).padStart(2)}. ${step.name ?? action}`;
      const input = resolveRefs(step[action], results);
      let result: unknown;
      if (action === 'advanceClock') {
        const res = await control(ctx.url, 'clock', { advance: String(input) });
        if (res.status !== 200) throw new Error(`${label}: the sandbox refused the clock move: ${res.text}`);
        result = res.json;
        ctx.log(`${label}  clock +${String(input)} → ${(res.json as { now: string }).now}`);
      } else if (action === 'expectWebhook') {
        result = await expectWebhook(ctx, input as { type: string; match?: Record<string, unknown>; within?: string }, label);
        ctx.log(`${label}  webhook ${(result as { type: string }).type} ${(result as { id: string }).id}`);
      } else if (action === 'expect') {
        const { actual, equals } = input as { actual: unknown; equals: unknown };
        if (JSON.stringify(actual) !== JSON.stringify(equals)) throw new Error(`${label}: expected ${JSON.stringify(equals)}, got ${JSON.stringify(actual)}`);
        result = actual;
        ctx.log(`${label}  ${JSON.stringify(actual)} as expected`);
      } else {
        const op = operationOf(action)!;
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
    await close();
  }
  return results;
}

/** The deliveries the sandbox has logged, oldest first. */
async function deliveries(ctx: RunContext): Promise<{ eventId: string; type: string; body: string }[]> {
  const res = await control(ctx.url, 'deliveries');
  if (res.status !== 200) throw new Error(`the sandbox did not list its webhook deliveries: ${res.status} ${res.text}`);
  return (res.json as { data?: { eventId: string; type: string; body: string }[] }).data ?? [];
}

/**
 * Waits for a delivery of `type` whose event matches (bounded by `within`, default 5 s of real time).
 * Without `match` only an event sent after the step began counts: one from before the scenario (or
 * an earlier step) says nothing about this one; give `match` to accept an earlier event about a
 * named resource.
 */
async function expectWebhook(ctx: RunContext, spec: { type: string; match?: Record<string, unknown>; within?: string }, label: string): Promise<unknown> {
  const deadline = Date.now() + durationMs(spec.within, 5_000);
  const before = spec.match ? new Set<string>() : new Set((await deliveries(ctx)).map((d) => d.eventId));
  for (;;) {
    const logged = (await deliveries(ctx)).filter((d) => d.type === spec.type);
    for (const delivery of logged) {
      if (before.has(delivery.eventId)) continue;
      const event = JSON.parse(delivery.body) as unknown;
      if (Object.entries(spec.match ?? {}).every(([path, want]) => JSON.stringify(at(event, path)) === JSON.stringify(want))) return event;
    }
    if (Date.now() > deadline) {
      const earlier = logged.find((d) => before.has(d.eventId));
      throw new Error(
        `${label}: no ${spec.type} webhook${spec.match ? ` matching ${JSON.stringify(spec.match)}` : ' sent after this step began'} within ${spec.within ?? '5s'}` +
          (earlier ? ` (${earlier.eventId} came before the step: give match to accept an earlier event about a given resource)` : ''),
      );
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * The built-in fixture behind each event type: the steps that drive a real resource, through the
 * sandbox's own state machine, to the transition that emits the event (the `resource` reference
 * names it). Payments that settle do so on the sandbox's clock (a couple of seconds); nothing here
 * moves the clock or sends an event of its own.
 */
export function fixtureFor(type: string): { scenario: Scenario; resource: string | undefined } {
  const address = { line1: '1 Main Street', city: 'Springfield', postalCode: '12345', country: 'US' };
  const customer = (fullName: string, withAddress = true): Step => ({
    name: 'customer',
    createCustomer: {
      body: { customerType: 'INDIVIDUAL', region: 'US', fullName, birthDate: '1990-12-10', nationality: 'GB', ...(withAddress ? { address } : {}) },
    },
  });
  // KYC events are sent when a status changes after creation: a customer made without its address
  // (UNVERIFIED, verification RESOLVE_ERRORS), then completed or renamed.
  const update = (body: Record<string, unknown>): Step => ({
    name: 'update',
    updateCustomer: { customerId: '${steps.customer.id}', body: { customerType: 'INDIVIDUAL', ...body } },
  });
  const funded: Step[] = [
    customer('Ada Lovelace'),
    { name: 'accounts', listInternalAccounts: { customerId: '${steps.customer.id}', currency: 'USD' } },
    { name: 'fund', fund: { accountId: '${steps.accounts.data.0.id}', body: { amount: 100000 } } },
  ];
  /** A payout of 250.00 USD to a UK account with this number (a magic number fails it or holds it). */
  const payout = (accountNumber: string): Scenario => ({
    steps: [
      ...funded,
      {
        name: 'payee',
        createExternalAccount: {
          body: {
            customerId: '${steps.customer.id}',
            currency: 'GBP',
            accountInfo: {
              accountType: 'GBP_ACCOUNT',
              accountNumber,
              routingNumber: '601613',
              bankName: 'Example Bank UK',
              beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Grace Hopper' },
            },
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
  });
  const receive = (amount: number): Scenario => ({
    steps: [
      customer('Ada Lovelace'),
      {
        name: 'payment',
        sandboxReceiveUmaPayment: {
          body: { senderUmaAddress: '$bob@sandbox.example', receivingCurrencyCode: 'USD', receivingCurrencyAmount: amount, customerId: '${steps.customer.id}' },
        },
      },
    ],
  });
  switch (type) {
    case 'CUSTOMER.KYC_APPROVED':
      return { scenario: { steps: [customer('Ada Lovelace', false), update({ address })] }, resource: '${steps.customer.id}' };
    case 'CUSTOMER.KYC_REJECTED':
      return {
        scenario: { steps: [customer('Ada Lovelace', false), update({ fullName: `Ada Lovelace${MAGIC_REJECTED}` })] },
        resource: '${steps.customer.id}',
      };
    case 'VERIFICATION.APPROVED':
      return {
        scenario: {
          steps: [customer('Ada Lovelace', false), update({ address }), { name: 'verifications', listVerifications: { customerId: '${steps.customer.id}' } }],
        },
        resource: '${steps.verifications.data.0.id}',
      };
    case 'VERIFICATION.RESOLVE_ERRORS':
      // Under manual review (the " Pending" name), then renamed: the missing address is an error to resolve.
      return {
        scenario: {
          steps: [
            customer(`Ada Lovelace${MAGIC_PENDING}`, false),
            update({ fullName: 'Ada Lovelace' }),
            { name: 'verifications', listVerifications: { customerId: '${steps.customer.id}' } },
          ],
        },
        resource: '${steps.verifications.data.0.id}',
      };
    case 'INCOMING_PAYMENT.PENDING':
      return { scenario: receive(HOLD_FOR_APPROVAL), resource: '${steps.payment.id}' };
    case 'INCOMING_PAYMENT.COMPLETED':
      return { scenario: receive(4200), resource: '${steps.payment.id}' };
    case 'INCOMING_PAYMENT.FAILED':
      // A transfer-in from an account whose number fails the payment (OFFRAMP_FAILED) when it settles.
      return {
        scenario: {
          steps: [
            customer('Ada Lovelace'),
            { name: 'accounts', listInternalAccounts: { customerId: '${steps.customer.id}', currency: 'USD' } },
            {
              name: 'source',
              createExternalAccount: {
                body: {
                  customerId: '${steps.customer.id}',
                  currency: 'USD',
                  accountInfo: {
                    accountType: 'USD_ACCOUNT',
                    accountNumber: FAILS_OFFRAMP,
                    routingNumber: '021000021',
                    bankName: 'Example Bank',
                    beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Lovelace' },
                  },
                },
              },
            },
            {
              name: 'payment',
              createTransferIn: {
                body: { source: { accountId: '${steps.source.id}' }, destination: { accountId: '${steps.accounts.data.0.id}' }, amount: 4200 },
              },
            },
          ],
        },
        resource: '${steps.payment.id}',
      };
    case 'OUTGOING_PAYMENT.PROCESSING':
      return { scenario: payout(STAYS_PROCESSING), resource: '${steps.quote.transactionId}' };
    case 'OUTGOING_PAYMENT.COMPLETED':
      return { scenario: payout('31926819'), resource: '${steps.quote.transactionId}' };
    case 'OUTGOING_PAYMENT.FAILED':
      return { scenario: payout(FAILS_OFFRAMP), resource: '${steps.quote.transactionId}' };
    case 'INVITATION.CLAIMED':
      // Claimed by its invitee (the sandbox's claim control, run after the steps).
      return {
        scenario: { steps: [customer('Ada Lovelace'), { name: 'invitation', createInvitation: { body: { inviterUma: '${steps.customer.umaAddress}' } } }] },
        resource: '${steps.invitation.code}',
      };
    default:
      return { scenario: { steps: [] }, resource: undefined };
  }
}

// The sandbox's magic values (crossborder-sdk/sandbox MAGIC) the fixtures use.
const MAGIC_REJECTED = ' Rejected';
const MAGIC_PENDING = ' Pending';
const HOLD_FOR_APPROVAL = 13_131_313;
const FAILS_OFFRAMP = '4000000000000005';
const STAYS_PROCESSING = '4000000000000098';

/** How long `trigger` waits for the sandbox to send the event (settlement takes 2 s of its clock). */
const TRIGGER_WAIT_MS = 15_000;

/** The id an event's data names its resource by: an invitation's `code`, else `id`. */
const resourceIdOf = (event: { type?: string; data?: { id?: unknown; code?: unknown } }) =>
  String(event.type?.startsWith('INVITATION.') ? event.data?.code : event.data?.id);

/**
 * Waits (bounded) for the event the sandbox itself sends when `resourceId` reaches the state `type`
 * names, among the events not logged before `seen`; answers its id.
 */
async function naturalEvent(ctx: RunContext, type: string, resourceId: string, seen: Set<string>): Promise<string> {
  const deadline = Date.now() + TRIGGER_WAIT_MS;
  for (;;) {
    for (const delivery of await deliveries(ctx)) {
      if (delivery.type !== type || seen.has(delivery.eventId)) continue;
      if (resourceIdOf(JSON.parse(delivery.body) as { type?: string; data?: { id?: unknown } }) === resourceId) return delivery.eventId;
    }
    if (Date.now() > deadline)
      throw new Error(`the sandbox sent no ${type} about ${resourceId} within ${TRIGGER_WAIT_MS / 1000} s: the steps did not drive it to that state`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Adds `trigger`. */
export function addTriggerCommand(program: Command, action: Action): void {
  program
    .command('trigger')
    .description(
      'make the local sandbox emit an event of TYPE by driving a real resource to that state (a customer, a payment…); the event is the one the sandbox sends for it',
    )
    .argument('<type>', 'the event type (INCOMING_PAYMENT.PENDING, OUTGOING_PAYMENT.COMPLETED, CUSTOMER.KYC_APPROVED, TEST…)')
    .option('--override <step.path=value>', 'change a field of the fixture, e.g. customer.fullName=Grace (repeatable)', (v: string, all: string[] = []) => [
      ...all,
      v,
    ])
    .option('--data <json|@file|->', 'your own fixture: a scenario (steps) whose step named "resource" (else the last) is the resource it drives to TYPE')
    .option('--url <url>', 'the sandbox (default: CROSSBORDER_BASE_URL, else http://127.0.0.1:4010)')
    .option('--json', 'print the result as one JSON line')
    .action(async (type: string, opts: { override?: string[]; data?: string; url?: string; json?: boolean }) =>
      action(opts.json === true, async () => {
        refuseUnknownType(type);
        // The user's input is read and checked before the sandbox is asked anything: a bad --data or
        // --override is a usage error that sends nothing.
        let scenario: Scenario | undefined;
        let resource: string | undefined;
        if (type !== 'TEST') {
          const builtIn = fixtureFor(type);
          scenario = builtIn.scenario;
          resource = builtIn.resource;
          if (opts.data !== undefined) {
            scenario = checkScenario(await readData(opts.data), '--data');
            resource = scenario.steps.some((s) => s.name === 'resource') ? '${steps.resource.id}' : '${steps.last.id}';
          }
          scenario = applyOverrides(scenario, opts.override ?? []);
        }
        // Nothing is made when no one would receive the event.
        const targets = await control(opts.url, 'listeners');
        const attached = targets.json as { endpoint?: string | null; data?: unknown[] } | undefined;
        if (targets.status === 200 && !attached?.endpoint && (attached?.data?.length ?? 0) === 0) {
          throw new Error(
            `nothing receives webhooks from the sandbox at ${shownUrl(sandboxUrl(opts.url))}: no webhookEndpoint is configured and no listen is attached (run crossborder-sdk listen --forward-to URL, or crossborder-sdk sandbox webhook-url URL)`,
          );
        }
        const log = opts.json ? () => {} : (line: string) => out(`${visible(line)}\n`);
        const ctx = { url: opts.url, log };
        let eventId: string;
        let resourceId: string | undefined;
        if (scenario === undefined) {
          // TEST is about nothing: the sandbox sends it as asked.
          const res = await control(opts.url, 'trigger', { type });
          if (res.status !== 200) throw new Error(`the sandbox did not send ${type}: ${res.text}`);
          eventId = (res.json as { eventId: string }).eventId;
        } else {
          const seen = new Set((await deliveries(ctx)).map((d) => d.eventId));
          const results = await runScenario(scenario, ctx);
          resourceId = String(resolveRefs(resource, results));
          if (type === 'INVITATION.CLAIMED' && opts.data === undefined) {
            const claimed = await control(opts.url, 'claimInvitation', {}, { code: resourceId });
            if (claimed.status !== 200) throw new Error(`the sandbox did not claim the invitation ${resourceId}: ${claimed.text}`);
          }
          // The event is the one the sandbox sent for the transition: no other is made on top of it.
          eventId = await naturalEvent(ctx, type, resourceId, seen);
        }
        if (opts.json) out(jsonLine({ type, eventId, resourceId: resourceId ?? null }));
        else out(visible(`Triggered ${type} ${eventId}${resourceId ? ` about ${resourceId}` : ''}`) + '\n');
      }),
    );
}

/** Adds `fixtures run`. */
export function addFixturesCommand(program: Command, action: Action): void {
  program
    .command('fixtures')
    .description('scenario files: steps run against the local sandbox')
    .command('run')
    .description(
      'run a scenario file (JSON or YAML): create a customer, fund, quote, execute, advance the clock, expect a webhook; ${steps.NAME.field} references',
    )
    .argument('<file>')
    .option('--url <url>', 'the sandbox (default: CROSSBORDER_BASE_URL, else http://127.0.0.1:4010)')
    .option('--json', 'print the named results as one JSON object at the end')
    .action(async (file: string, opts: { url?: string; json?: boolean }) =>
      action(opts.json === true, async () => {
        const scenario = await readScenario(file);
        const log = opts.json ? () => {} : (line: string) => out(`${visible(line)}\n`);
        if (scenario.name && !opts.json) out(`${visible(scenario.name)}\n`);
        const results = await runScenario(scenario, { url: opts.url, log });
        delete results.last;
        if (opts.json) out(jsonLine(results));
        else out(`done: ${scenario.steps.length} steps\n`);
      }),
    );
}
