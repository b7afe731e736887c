/**
 * The optional parts of a core, as types: what each part is to the client ({@link CoreParts}), apart from the
 * parts' code (./parts, ./hooks, ./telemetry), so that the plan, the parts and the client read them without an
 * import circle.
 * @module
 */
import type { AfterLeg } from './api-promise';
import type { ValidationIssue } from './errors';
import type { HooksPart } from './hooks';
import type { RawIssue } from './issues';
import type { Logger, LogLevel } from './log-types';
import type { Log } from './logger';
import type { Operation, ParamIssues } from './operation';
import type { ValidationIssueReport } from './options';
import type { TelemetryRecorder } from './telemetry';
import type { OperationChecks } from './validation';

/**
 * What a client is built with beyond its options: the code of optional behaviours, so that a bundle holds
 * only those it uses. `Crossborder` has every part; `new CrossborderCore(options, { requestChecks,
 * responseChecks, logging, telemetry: openTelemetry })` behaves as it does.
 * @group Client
 */
export interface CoreParts {
  /** The OpenTelemetry recorder ({@link openTelemetry}): spans and metrics when a provider is there. */
  telemetry?: TelemetryRecorder | undefined;
  /** Local checks of every call's parameters ({@link requestChecks}): without them, a bad parameter gets the service's 400. */
  requestChecks?: RequestChecks | undefined;
  /** Checks of answers (`validateResponses`) and of webhook events ({@link responseChecks}). */
  responseChecks?: ResponseChecks | undefined;
  /** The logger ({@link logging}): `logger`, `logLevel`, `CROSSBORDER_LOG`. */
  logging?: Logging | undefined;
  /** Request hooks ({@link requestHooks}): the `hooks` and `unsafeRawBodies` options. */
  hooks?: HooksPart | undefined;
}

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
