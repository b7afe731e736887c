/**
 * The optional parts of a {@link CrossborderCore}: the code of a behaviour a program may leave
 * out of its bundle, given to the core as the OpenTelemetry recorder is. `Crossborder` is a core with every
 * part; a core without one does without that behaviour and its bundle holds none of its code.
 * @module
 */
import type { Check } from './checks';
import type { Operation, ParamIssues } from './plan';
import type { CoreParts } from './client';
import type { ValidationIssue } from './errors';
import type { ValidationIssueReport } from './options';
import type { AfterLeg } from './transport';
import type { RawIssue } from './issues';
import { driftMessage, logFromOptions, type Log, type Logger, type LogLevel } from './logger';
import { describe, loadIssues, type OperationChecks, type Schema, type SchemaRef } from './validation';

// Each table of loaders loads with the first call that needs it: the client's first chunk holds one
// `import()` per table, not a row per operation.
let requestTable: Promise<typeof import('../generated/request-checks')> | undefined;
let responseTable: Promise<typeof import('../generated/response-checks')> | undefined;

/**
 * The `requestChecks` part: what a call's parameters are checked with before anything is sent.
 * @group Client
 */
export interface RequestChecks {
  /** @internal The loader of an operation's compiled checks, by operation id (`{}` for an operation without any). */
  readonly load: (id: string) => (() => Promise<OperationChecks>) | undefined;
  /** @internal Raw issues as `ValidationIssue`s (loads the messages). */
  readonly describe: (raw: readonly RawIssue[]) => Promise<ValidationIssue[]>;
  /** @internal The checks of an operation's inline schemas (tests, the `request()` escape hatch), `null` when it has none. */
  readonly inline: (params: Operation['params']) => OperationChecks | null;
  /**
   * @internal The check of one operation's parameters, made once per client and operation (its plan): the
   * compiled checks of an operation of the document (loaded with its first call by `load`), else its inline
   * schemas, and a required body. Here, not in the plan, so that a core without this part holds none of it.
   */
  readonly checker: (this: RequestChecks, op: Operation) => ParamIssues;
}

/**
 * The `responseChecks` part: what the service's 2xx answers (`validateResponses`) and webhook events are checked with.
 * @group Client
 */
export interface ResponseChecks {
  /** @internal What of a 2xx body of operation `id` differs from the document (its check loaded on first use): empty when it matches or none is documented. */
  readonly response: (id: string, data: unknown) => Promise<ValidationIssue[]>;
  /**
   * @internal What of a webhook event of a known type differs from the document's `WebhookEvent` (envelope and
   * `data`): synchronously, an empty array, when its check is loaded and finds nothing (a delivery that matches
   * takes no promise); else a promise.
   */
  readonly event: (event: unknown) => ValidationIssue[] | Promise<ValidationIssue[]>;
  /**
   * @internal With `validateResponses`: what a leg's result goes through before `after`, a documented 2xx body
   * (not a 202 or 204) checked against the document and its drift handed to `report`, never thrown.
   */
  readonly checked: (
    plan: { readonly op: Operation; readonly label: string },
    report: (report: ValidationIssueReport) => void,
    after: AfterLeg | undefined,
  ) => AfterLeg;
  /** @internal With `validateResponses` and no log at `warn`: drift written to the console. */
  readonly warn: (report: ValidationIssueReport) => void;
}

/**
 * The `logging` part: the debug and info lines of each attempt, with headers redacted and bodies masked.
 * @group Client
 */
export interface Logging {
  /** @internal The client's log from its `logger` and `logLevel` options, else `CROSSBORDER_LOG`. */
  readonly make: (logger: Logger | undefined, level: LogLevel | undefined, envLevel: string | undefined) => Log;
}

/** Inline schemas (tests, the `request()` escape hatch) as checks; names are the sandbox's, not checked here. */
function inlineChecks(params: Operation['params']): OperationChecks | null {
  const asCheck = (ref: SchemaRef | undefined): Check | undefined => {
    if (ref === undefined || typeof ref === 'string') return undefined;
    return (value, issues) => {
      const result = ref.safeParse(value);
      if (!result.success) for (const issue of result.error.issues) issues.push({ ...issue, path: [...issue.path] });
    };
  };
  const checks = { path: asCheck(params?.path), query: asCheck(params?.query), body: asCheck(params?.body) };
  return checks.path || checks.query || checks.body ? checks : null;
}

// Checks run synchronously: one scratch list serves every call, copied only when something failed.
const SCRATCH: RawIssue[] = [];

function checker(this: RequestChecks, op: Operation): ParamIssues {
  // An operation of the document runs the checks compiled from it (the part holds their loaders, by
  // operation id); any other, its inline schemas.
  const inline = this.inline(op.params);
  const loader = inline || !op.checked ? undefined : this.load(op.id);
  /** Checks of path, query and body; `null` when the operation has none; `undefined` until loaded. */
  let checks = loader ? undefined : inline;
  let loading: Promise<OperationChecks | null> | undefined;
  const part = this;
  const paramIssues: ParamIssues = (path, query, body) => {
    if (checks === undefined) {
      loading ??= loader!().then(
        (loaded) => (checks = loaded),
        (error: unknown) => {
          loading = undefined; // a failed load (a chunk the network lost) may be tried again
          throw error;
        },
      );
      return loading.then(() => paramIssues(path, query, body));
    }
    SCRATCH.length = 0;
    if (checks !== null) {
      if (checks.path) checks.path(path ?? {}, SCRATCH);
      if (query !== undefined && checks.query) checks.query(query, SCRATCH);
      if (body !== undefined && checks.body) checks.body(body, SCRATCH);
    }
    // A required body is a local check too: without the part, the service's 400 says it.
    const required = body === undefined && op.bodyRequired === true;
    if (SCRATCH.length === 0 && !required) return [];
    const raw = SCRATCH.splice(0);
    return part.describe(raw).then((issues) => {
      if (required) issues.push({ path: '', rule: 'required', message: 'a request body is required' });
      return issues;
    });
  };
  return paramIssues;
}

const describeRaw = async (raw: readonly RawIssue[]) => {
  await loadIssues();
  return describe(raw);
};

/** The issues of `value` under a compiled check (none without one), described. */
async function issuesOf(check: Check | undefined, value: unknown): Promise<ValidationIssue[]> {
  if (!check) return [];
  const raw: RawIssue[] = [];
  check(value, raw);
  return raw.length ? describeRaw(raw) : [];
}

/**
 * Local checks of every call's parameters (path, query, body) against the document, before anything is
 * sent: a bad parameter is a `ValidationError` naming the field, and nothing goes out. `Crossborder` has
 * them; a {@link CrossborderCore} has them when given this part, `new CrossborderCore(options, { requestChecks })`.
 * Without it, the service's own 400 (a `BadRequestError`) is what a bad parameter gets, one round trip later.
 * An operation's checks load with its first call; in a bundle of one file, every operation's checks are in it.
 * @group Client
 */
export const requestChecks: RequestChecks = {
  load: (id) => async () => {
    const load = (await (requestTable ??= import('../generated/request-checks'))).requestCheckLoaders[id];
    return load ? load() : {};
  },
  describe: describeRaw,
  inline: inlineChecks,
  checker,
};

/**
 * Checks of what the service sends against the document: 2xx answers when the client's `validateResponses`
 * option is on (drift reported, never thrown), and the typed check of each webhook event (`event.issues`).
 * `Crossborder` has them; a {@link CrossborderCore} has them when given this part. Without it,
 * `validateResponses: true` is refused when the core is made, and a verified event of a known type comes
 * back with the issues of its envelope only (`id`, `type`, `timestamp`, `data`), not of its `data`.
 * @group Client
 */
export const responseChecks: ResponseChecks = {
  response: async (id, data) => {
    // Kept once loaded (`null`: none documented), so a call with validateResponses does not go through `import()` again.
    let check = responseCheckOf.get(id);
    if (check === undefined) {
      const load = (await (responseTable ??= import('../generated/response-checks'))).responseCheckLoaders[id];
      check = (load && (await load())[id]) ?? null;
      if (responseCheckOf.size < 512) responseCheckOf.set(id, check); // bounded: request()'s ad-hoc ids are not a fixed set
    }
    return issuesOf(check ?? undefined, data);
  },
  event: (event) => (eventCheck ? issuesNow(eventCheck, event) : loadEventCheck().then((check) => issuesNow(check, event))),
  checked:
    ({ op, label }, report, after) =>
    async (result) => {
      const { status } = result.response;
      if (status !== 202 && status !== 204) {
        const issues = await responseChecks.response(op.id, result.data);
        if (issues.length) report({ operation: label, status, requestId: result.requestId, issues });
      }
      return after ? after(result) : result;
    },
  warn: (report) => {
    try {
      console.warn(`[crossborder-sdk] ${driftMessage(report)}`);
    } catch {
      // no console
    }
  },
};

// Operation id → its 2xx body check, once loaded.
const responseCheckOf = new Map<string, Check | null>();

// The event's compiled check, kept once loaded: a delivery does not go through `import()` again.
let eventCheck: Check | undefined;
let eventCheckLoad: Promise<Check> | undefined;
const loadEventCheck = () => (eventCheckLoad ??= import('../generated/checks/events').then((m) => (eventCheck = m.WebhookEvent)));

/** {@link issuesOf} without a promise when the check finds nothing. */
function issuesNow(check: Check, value: unknown): ValidationIssue[] | Promise<ValidationIssue[]> {
  const raw: RawIssue[] = [];
  check(value, raw);
  return raw.length ? describeRaw(raw) : [];
}

/**
 * The client's logging: the `logger` and `logLevel` options (and `CROSSBORDER_LOG`), a line per attempt at
 * `info`, requests and answers at `debug` with credentials redacted and personal data masked, drift of
 * answers at `warn`. `Crossborder` has it; a {@link CrossborderCore} has it when given this part. Without it,
 * a `logger` or `logLevel` option is refused when the core is made, and `CROSSBORDER_LOG` is not read.
 * @group Client
 */
export const logging: Logging = { make: logFromOptions };

/** @internal Every part but the OpenTelemetry recorder: what the CLI's cores run with (the checks and the log of `Crossborder`). */
export const CHECKED: CoreParts = { requestChecks, responseChecks, logging };
